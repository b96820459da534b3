// Clean: the kernel declares `int i` once and uses it for two loops. The first strides over the
// ray by thread; the second starts `i` afresh at `blockDim.y / 2` and halves it, the same in every
// thread, so the barrier inside the tree reduction is reached by the whole block on every trip.
#include <cuda_runtime.h>
#include "cuda_check.h"

static __global__ void mGForProjs(const float* gfVol, int iRayLength, float* gfForProjs)
{	extern __shared__ float s_pRayInt[];
	int i = 0;
	float fSum = 0.0f;
	for(i=threadIdx.y; i<iRayLength; i+=blockDim.y)
	{	fSum += gfVol[blockIdx.x * iRayLength + i];
	}
	s_pRayInt[threadIdx.y] = fSum;
	__syncthreads();
	//---------------------------
	for(i=blockDim.y/2; i>0; i=i/2)
	{	if(threadIdx.y < i)
		{	int j = threadIdx.y + i;
			s_pRayInt[threadIdx.y] += s_pRayInt[j];
		}
		__syncthreads();
	}
	if(threadIdx.y != 0) return;
	gfForProjs[blockIdx.x] = s_pRayInt[0];
}

void ForProj(const float* gfVol, int iProjX, int iRayLength, float* gfForProjs, cudaStream_t stream)
{	dim3 aBlockDim(1, 64);
	dim3 aGridDim(iProjX, 1);
	int iShmBytes = sizeof(float) * aBlockDim.y;
	mGForProjs<<<aGridDim, aBlockDim, iShmBytes, stream>>>(gfVol, iRayLength, gfForProjs);
	CUDA_CHECK(cudaGetLastError());
}
