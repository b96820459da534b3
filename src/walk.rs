//! What a walk may meet besides files and directories. Opening a FIFO blocks until something
//! writes to it, and reading a device may never end, so these are recognised from their metadata
//! alone and never opened.

use std::fs::Metadata;
use std::path::Path;

/// What `path` is when it is neither a regular file nor a directory (symbolic links followed);
/// `None` for files, directories and paths that cannot be inspected (reading them reports why).
pub fn special_kind(path: &Path) -> Option<&'static str> {
    let metadata = std::fs::metadata(path).ok()?;
    special_kind_of(&metadata)
}

pub fn special_kind_of(metadata: &Metadata) -> Option<&'static str> {
    if metadata.is_file() || metadata.is_dir() {
        return None;
    }
    Some(kind_name(metadata))
}

#[cfg(unix)]
fn kind_name(metadata: &Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let kind = metadata.file_type();
    if kind.is_fifo() {
        "FIFO (named pipe)"
    } else if kind.is_socket() {
        "socket"
    } else if kind.is_char_device() {
        "character device"
    } else if kind.is_block_device() {
        "block device"
    } else {
        "special file"
    }
}

#[cfg(not(unix))]
fn kind_name(_metadata: &Metadata) -> &'static str {
    "special file"
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn device_and_regular_files_are_told_apart() {
        assert_eq!(
            special_kind(Path::new("/dev/null")),
            Some("character device")
        );
        assert_eq!(special_kind(Path::new("Cargo.toml")), None);
        assert_eq!(special_kind(Path::new("src")), None);
        assert_eq!(special_kind(Path::new("no/such/file")), None);
    }
}
