/*
 * rt_attr.c — the answer to every device attribute, in one place.
 *
 * cudaDeviceGetAttribute and cudaGetDeviceProperties both read rt_attr(), so
 * the two can never disagree. Every valid cudaDeviceAttr has an answer of one
 * of two kinds (docs/runtime.md):
 *
 *   RT_ATTR_MODELLED  the simulator's own configuration (SM count, warps,
 *                     registers, shared memory, L2 size, clock, ...), or what
 *                     the simulator does (no concurrent kernels, no copy
 *                     engines, no peer access);
 *   RT_ATTR_CC75      not modelled: the value a device of the reported
 *                     compute capability (7.5, Turing: Tesla T4 / GeForce RTX
 *                     20xx) gives — texture and surface limits from the CUDA C
 *                     Programming Guide's "Technical Specifications per Compute
 *                     Capability" table, the rest as such a board reports it.
 *
 * Only a value that is not an enumerator of cudaDeviceAttr (or is one of its
 * cudaDevAttrReservedNN placeholders) is an error.
 */
#include <stdint.h>

#include "rt_internal.h"

int rt_attr(enum cudaDeviceAttr attr, const smc_device_props *p, long long *v)
{
    int kind = RT_ATTR_MODELLED;
    switch (attr) {
    /* ---- from the simulator's configuration ---- */
    case cudaDevAttrMaxThreadsPerBlock:          *v = p->max_threads_per_block; break;
    case cudaDevAttrMaxBlockDimX:                *v = p->max_block_dim[0]; break;
    case cudaDevAttrMaxBlockDimY:                *v = p->max_block_dim[1]; break;
    case cudaDevAttrMaxBlockDimZ:                *v = p->max_block_dim[2]; break;
    case cudaDevAttrMaxGridDimX:                 *v = p->max_grid_dim[0]; break;
    case cudaDevAttrMaxGridDimY:                 *v = p->max_grid_dim[1]; break;
    case cudaDevAttrMaxGridDimZ:                 *v = p->max_grid_dim[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock:     *v = p->smem_per_block; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *v = p->smem_per_block; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: *v = 0; break;
    case cudaDevAttrTotalConstantMemory:         *v = p->const_bytes; break;
    case cudaDevAttrWarpSize:                    *v = p->warp_size; break;
    case cudaDevAttrMaxRegistersPerBlock:        *v = p->max_regs_per_block; break;
    case cudaDevAttrClockRate:                   *v = p->clock_khz; break;
    case cudaDevAttrMultiProcessorCount:         *v = p->num_sms; break;
    case cudaDevAttrComputeCapabilityMajor:      *v = p->cc_major; break;
    case cudaDevAttrComputeCapabilityMinor:      *v = p->cc_minor; break;
    case cudaDevAttrL2CacheSize:                 *v = p->l2_bytes; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *v = p->max_threads_per_sm; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *v = p->smem_per_sm; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *v = p->regs_per_sm; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor:  *v = p->max_ctas_per_sm; break;
    /* ---- what the simulator does ---- */
    case cudaDevAttrIntegrated:                  *v = 0; break;
    case cudaDevAttrCanMapHostMemory:            *v = 1; break;  /* host memory is device memory */
    case cudaDevAttrUnifiedAddressing:           *v = 1; break;
    case cudaDevAttrManagedMemory:               *v = 1; break;
    case cudaDevAttrConcurrentManagedAccess:     *v = 0; break;
    case cudaDevAttrPageableMemoryAccess:        *v = 0; break;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables: *v = 0; break;
    case cudaDevAttrDirectManagedMemAccessFromHost: *v = 0; break;
    case cudaDevAttrGlobalL1CacheSupported:      *v = 1; break;
    case cudaDevAttrLocalL1CacheSupported:       *v = 1; break;
    case cudaDevAttrConcurrentKernels:           *v = 0; break;  /* one kernel at a time */
    case cudaDevAttrAsyncEngineCount:            *v = 0; break;  /* copies are synchronous */
    case cudaDevAttrGpuOverlap:                  *v = 0; break;  /* (so no copy/kernel overlap) */
    case cudaDevAttrKernelExecTimeout:           *v = 0; break;  /* the watchdog is the simulator's own */
    case cudaDevAttrComputeMode:                 *v = cudaComputeModeDefault; break;
    case cudaDevAttrEccEnabled:                  *v = 0; break;
    case cudaDevAttrTccDriver:                   *v = 0; break;
    case cudaDevAttrPciBusId:                    *v = 0; break;  /* no PCI location */
    case cudaDevAttrPciDeviceId:                 *v = 0; break;
    case cudaDevAttrPciDomainId:                 *v = 0; break;
    case cudaDevAttrGpuPciDeviceId:              *v = 0; break;
    case cudaDevAttrGpuPciSubsystemId:           *v = 0; break;
    case cudaDevAttrIsMultiGpuBoard:             *v = 0; break;  /* one device */
    case cudaDevAttrMultiGpuBoardGroupID:        *v = 0; break;
    case cudaDevAttrHostNativeAtomicSupported:   *v = 0; break;
    case cudaDevAttrOnlyPartialHostNativeAtomicSupported: *v = 0; break;
    case cudaDevAttrStreamPrioritiesSupported:   *v = 0; break;  /* streams run in order */
    case cudaDevAttrCooperativeLaunch:           *v = 1; break;  /* cudaLaunchCooperativeKernel */
    case cudaDevAttrClusterLaunch:               *v = 0; break;  /* clusters are sm_90 */
    case cudaDevAttrMemoryPoolsSupported:        *v = 1; break;  /* one default pool (rt_stream.c) */
    case cudaDevAttrMemoryPoolSupportedHandleTypes: *v = 0; break;
    case cudaDevAttrHostMemoryPoolsSupported:    *v = 0; break;
    case cudaDevAttrHostNumaMemoryPoolsSupported: *v = 0; break;
    case cudaDevAttrHostNumaMultinodeIpcSupported: *v = 0; break;
    case cudaDevAttrHostRegisterSupported:       *v = 1; break;  /* device shadows (rt_stream.c) */
    case cudaDevAttrHostRegisterReadOnlySupported: *v = 1; break;
    case cudaDevAttrCanUseHostPointerForRegisteredMem: *v = 1; break;  /* translated at launch */
    case cudaDevAttrIpcEventSupport:             *v = 0; break;  /* one process */
    case cudaDevAttrGPUDirectRDMASupported:      *v = 0; break;
    case cudaDevAttrGPUDirectRDMAFlushWritesOptions: *v = 0; break;
    case cudaDevAttrGPUDirectRDMAWritesOrdering: *v = 0; break;
    case cudaDevAttrCanFlushRemoteWrites:        *v = 0; break;
    case cudaDevAttrTimelineSemaphoreInteropSupported: *v = 0; break;
    case cudaDevAttrD3D12CigSupported:           *v = 0; break;
    case cudaDevAttrVulkanCigSupported:          *v = 0; break;
    case cudaDevAttrSparseCudaArraySupported:    *v = 0; break;
    case cudaDevAttrDeferredMappingCudaArraySupported: *v = 0; break;
    case cudaDevAttrMaxPersistingL2CacheSize:    *v = 0; break;  /* no persisting L2 lines */
    case cudaDevAttrMaxAccessPolicyWindowSize:   *v = 0; break;
    case cudaDevAttrComputePreemptionSupported:  *v = 0; break;
    case cudaDevAttrMpsEnabled:                  *v = 0; break;
    case cudaDevAttrNumaConfig:                  *v = 0; break;  /* cudaDeviceNumaConfigNone */
    case cudaDevAttrNumaId:                      *v = -1; break;
    case cudaDevAttrHostNumaId:                  *v = -1; break;
    case cudaDevAttrMemSyncDomainCount:          *v = 1; break;
    /* ---- not modelled: as a compute capability 7.5 device ---- */
    default:
        kind = RT_ATTR_CC75;
        switch (attr) {
        case cudaDevAttrMaxPitch:                    *v = 2147483647; break;
        case cudaDevAttrTextureAlignment:            *v = 512; break;
        case cudaDevAttrTexturePitchAlignment:       *v = 32; break;
        case cudaDevAttrSurfaceAlignment:            *v = 512; break;
        case cudaDevAttrMemoryClockRate:             *v = 5001000; break;  /* kHz, T4 GDDR6 */
        case cudaDevAttrGlobalMemoryBusWidth:        *v = 256; break;
        case cudaDevAttrSingleToDoublePrecisionPerfRatio: *v = 32; break;
        case cudaDevAttrMaxTexture1DWidth:           *v = 131072; break;
        case cudaDevAttrMaxTexture2DWidth:           *v = 131072; break;
        case cudaDevAttrMaxTexture2DHeight:          *v = 65536; break;
        case cudaDevAttrMaxTexture3DWidth:           *v = 16384; break;
        case cudaDevAttrMaxTexture3DHeight:          *v = 16384; break;
        case cudaDevAttrMaxTexture3DDepth:           *v = 16384; break;
        case cudaDevAttrMaxTexture3DWidthAlt:        *v = 8192; break;
        case cudaDevAttrMaxTexture3DHeightAlt:       *v = 8192; break;
        case cudaDevAttrMaxTexture3DDepthAlt:        *v = 32768; break;
        case cudaDevAttrMaxTexture2DLayeredWidth:    *v = 32768; break;
        case cudaDevAttrMaxTexture2DLayeredHeight:   *v = 32768; break;
        case cudaDevAttrMaxTexture2DLayeredLayers:   *v = 2048; break;
        case cudaDevAttrMaxTexture1DLayeredWidth:    *v = 32768; break;
        case cudaDevAttrMaxTexture1DLayeredLayers:   *v = 2048; break;
        case cudaDevAttrMaxTexture2DGatherWidth:     *v = 32768; break;
        case cudaDevAttrMaxTexture2DGatherHeight:    *v = 32768; break;
        case cudaDevAttrMaxTextureCubemapWidth:      *v = 32768; break;
        case cudaDevAttrMaxTextureCubemapLayeredWidth: *v = 32768; break;
        case cudaDevAttrMaxTextureCubemapLayeredLayers: *v = 2046; break;
        case cudaDevAttrMaxTexture1DLinearWidth:     *v = 268435456; break;
        case cudaDevAttrMaxTexture2DLinearWidth:     *v = 131072; break;
        case cudaDevAttrMaxTexture2DLinearHeight:    *v = 65000; break;
        case cudaDevAttrMaxTexture2DLinearPitch:     *v = 2097120; break;
        case cudaDevAttrMaxTexture2DMipmappedWidth:  *v = 32768; break;
        case cudaDevAttrMaxTexture2DMipmappedHeight: *v = 32768; break;
        case cudaDevAttrMaxTexture1DMipmappedWidth:  *v = 32768; break;
        case cudaDevAttrMaxSurface1DWidth:           *v = 32768; break;
        case cudaDevAttrMaxSurface2DWidth:           *v = 131072; break;
        case cudaDevAttrMaxSurface2DHeight:          *v = 65536; break;
        case cudaDevAttrMaxSurface3DWidth:           *v = 16384; break;
        case cudaDevAttrMaxSurface3DHeight:          *v = 16384; break;
        case cudaDevAttrMaxSurface3DDepth:           *v = 16384; break;
        case cudaDevAttrMaxSurface1DLayeredWidth:    *v = 32768; break;
        case cudaDevAttrMaxSurface1DLayeredLayers:   *v = 2048; break;
        case cudaDevAttrMaxSurface2DLayeredWidth:    *v = 32768; break;
        case cudaDevAttrMaxSurface2DLayeredHeight:   *v = 32768; break;
        case cudaDevAttrMaxSurface2DLayeredLayers:   *v = 2048; break;
        case cudaDevAttrMaxSurfaceCubemapWidth:      *v = 32768; break;
        case cudaDevAttrMaxSurfaceCubemapLayeredWidth: *v = 32768; break;
        case cudaDevAttrMaxSurfaceCubemapLayeredLayers: *v = 2046; break;
        default:
            return RT_ATTR_INVALID;   /* not an attribute, or a reserved number */
        }
    }
    return kind;
}

static long long attr_or_zero(enum cudaDeviceAttr attr, const smc_device_props *p)
{
    long long v = 0;
    return rt_attr(attr, p, &v) == RT_ATTR_INVALID ? 0 : v;
}

/* cudaDeviceProp from the same answers. Fields without an attribute of their
 * own (name, global memory size, the unique ids) are filled by the caller. */
void rt_attr_fill_props(struct cudaDeviceProp *d, const smc_device_props *p)
{
#define A(attr) attr_or_zero(attr, p)
    d->sharedMemPerBlock = (size_t)A(cudaDevAttrMaxSharedMemoryPerBlock);
    d->regsPerBlock = (int)A(cudaDevAttrMaxRegistersPerBlock);
    d->warpSize = (int)A(cudaDevAttrWarpSize);
    d->memPitch = (size_t)A(cudaDevAttrMaxPitch);
    d->maxThreadsPerBlock = (int)A(cudaDevAttrMaxThreadsPerBlock);
    d->maxThreadsDim[0] = (int)A(cudaDevAttrMaxBlockDimX);
    d->maxThreadsDim[1] = (int)A(cudaDevAttrMaxBlockDimY);
    d->maxThreadsDim[2] = (int)A(cudaDevAttrMaxBlockDimZ);
    d->maxGridSize[0] = (int)A(cudaDevAttrMaxGridDimX);
    d->maxGridSize[1] = (int)A(cudaDevAttrMaxGridDimY);
    d->maxGridSize[2] = (int)A(cudaDevAttrMaxGridDimZ);
    d->totalConstMem = (size_t)A(cudaDevAttrTotalConstantMemory);
    d->major = (int)A(cudaDevAttrComputeCapabilityMajor);
    d->minor = (int)A(cudaDevAttrComputeCapabilityMinor);
    d->textureAlignment = (size_t)A(cudaDevAttrTextureAlignment);
    d->texturePitchAlignment = (size_t)A(cudaDevAttrTexturePitchAlignment);
    d->multiProcessorCount = (int)A(cudaDevAttrMultiProcessorCount);
    d->integrated = (int)A(cudaDevAttrIntegrated);
    d->canMapHostMemory = (int)A(cudaDevAttrCanMapHostMemory);
    d->maxTexture1D = (int)A(cudaDevAttrMaxTexture1DWidth);
    d->maxTexture1DMipmap = (int)A(cudaDevAttrMaxTexture1DMipmappedWidth);
    d->maxTexture2D[0] = (int)A(cudaDevAttrMaxTexture2DWidth);
    d->maxTexture2D[1] = (int)A(cudaDevAttrMaxTexture2DHeight);
    d->maxTexture2DMipmap[0] = (int)A(cudaDevAttrMaxTexture2DMipmappedWidth);
    d->maxTexture2DMipmap[1] = (int)A(cudaDevAttrMaxTexture2DMipmappedHeight);
    d->maxTexture2DLinear[0] = (int)A(cudaDevAttrMaxTexture2DLinearWidth);
    d->maxTexture2DLinear[1] = (int)A(cudaDevAttrMaxTexture2DLinearHeight);
    d->maxTexture2DLinear[2] = (int)A(cudaDevAttrMaxTexture2DLinearPitch);
    d->maxTexture2DGather[0] = (int)A(cudaDevAttrMaxTexture2DGatherWidth);
    d->maxTexture2DGather[1] = (int)A(cudaDevAttrMaxTexture2DGatherHeight);
    d->maxTexture3D[0] = (int)A(cudaDevAttrMaxTexture3DWidth);
    d->maxTexture3D[1] = (int)A(cudaDevAttrMaxTexture3DHeight);
    d->maxTexture3D[2] = (int)A(cudaDevAttrMaxTexture3DDepth);
    d->maxTexture3DAlt[0] = (int)A(cudaDevAttrMaxTexture3DWidthAlt);
    d->maxTexture3DAlt[1] = (int)A(cudaDevAttrMaxTexture3DHeightAlt);
    d->maxTexture3DAlt[2] = (int)A(cudaDevAttrMaxTexture3DDepthAlt);
    d->maxTextureCubemap = (int)A(cudaDevAttrMaxTextureCubemapWidth);
    d->maxTexture1DLayered[0] = (int)A(cudaDevAttrMaxTexture1DLayeredWidth);
    d->maxTexture1DLayered[1] = (int)A(cudaDevAttrMaxTexture1DLayeredLayers);
    d->maxTexture2DLayered[0] = (int)A(cudaDevAttrMaxTexture2DLayeredWidth);
    d->maxTexture2DLayered[1] = (int)A(cudaDevAttrMaxTexture2DLayeredHeight);
    d->maxTexture2DLayered[2] = (int)A(cudaDevAttrMaxTexture2DLayeredLayers);
    d->maxTextureCubemapLayered[0] = (int)A(cudaDevAttrMaxTextureCubemapLayeredWidth);
    d->maxTextureCubemapLayered[1] = (int)A(cudaDevAttrMaxTextureCubemapLayeredLayers);
    d->maxSurface1D = (int)A(cudaDevAttrMaxSurface1DWidth);
    d->maxSurface2D[0] = (int)A(cudaDevAttrMaxSurface2DWidth);
    d->maxSurface2D[1] = (int)A(cudaDevAttrMaxSurface2DHeight);
    d->maxSurface3D[0] = (int)A(cudaDevAttrMaxSurface3DWidth);
    d->maxSurface3D[1] = (int)A(cudaDevAttrMaxSurface3DHeight);
    d->maxSurface3D[2] = (int)A(cudaDevAttrMaxSurface3DDepth);
    d->maxSurface1DLayered[0] = (int)A(cudaDevAttrMaxSurface1DLayeredWidth);
    d->maxSurface1DLayered[1] = (int)A(cudaDevAttrMaxSurface1DLayeredLayers);
    d->maxSurface2DLayered[0] = (int)A(cudaDevAttrMaxSurface2DLayeredWidth);
    d->maxSurface2DLayered[1] = (int)A(cudaDevAttrMaxSurface2DLayeredHeight);
    d->maxSurface2DLayered[2] = (int)A(cudaDevAttrMaxSurface2DLayeredLayers);
    d->maxSurfaceCubemap = (int)A(cudaDevAttrMaxSurfaceCubemapWidth);
    d->maxSurfaceCubemapLayered[0] = (int)A(cudaDevAttrMaxSurfaceCubemapLayeredWidth);
    d->maxSurfaceCubemapLayered[1] = (int)A(cudaDevAttrMaxSurfaceCubemapLayeredLayers);
    d->surfaceAlignment = (size_t)A(cudaDevAttrSurfaceAlignment);
    d->concurrentKernels = (int)A(cudaDevAttrConcurrentKernels);
    d->ECCEnabled = (int)A(cudaDevAttrEccEnabled);
    d->pciBusID = (int)A(cudaDevAttrPciBusId);
    d->pciDeviceID = (int)A(cudaDevAttrPciDeviceId);
    d->pciDomainID = (int)A(cudaDevAttrPciDomainId);
    d->tccDriver = (int)A(cudaDevAttrTccDriver);
    d->asyncEngineCount = (int)A(cudaDevAttrAsyncEngineCount);
    d->unifiedAddressing = (int)A(cudaDevAttrUnifiedAddressing);
    d->memoryBusWidth = (int)A(cudaDevAttrGlobalMemoryBusWidth);
    d->l2CacheSize = (int)A(cudaDevAttrL2CacheSize);
    d->persistingL2CacheMaxSize = (int)A(cudaDevAttrMaxPersistingL2CacheSize);
    d->maxThreadsPerMultiProcessor = (int)A(cudaDevAttrMaxThreadsPerMultiProcessor);
    d->streamPrioritiesSupported = (int)A(cudaDevAttrStreamPrioritiesSupported);
    d->globalL1CacheSupported = (int)A(cudaDevAttrGlobalL1CacheSupported);
    d->localL1CacheSupported = (int)A(cudaDevAttrLocalL1CacheSupported);
    d->sharedMemPerMultiprocessor = (size_t)A(cudaDevAttrMaxSharedMemoryPerMultiprocessor);
    d->regsPerMultiprocessor = (int)A(cudaDevAttrMaxRegistersPerMultiprocessor);
    d->managedMemory = (int)A(cudaDevAttrManagedMemory);
    d->isMultiGpuBoard = (int)A(cudaDevAttrIsMultiGpuBoard);
    d->multiGpuBoardGroupID = (int)A(cudaDevAttrMultiGpuBoardGroupID);
    d->hostNativeAtomicSupported = (int)A(cudaDevAttrHostNativeAtomicSupported);
    d->pageableMemoryAccess = (int)A(cudaDevAttrPageableMemoryAccess);
    d->concurrentManagedAccess = (int)A(cudaDevAttrConcurrentManagedAccess);
    d->computePreemptionSupported = (int)A(cudaDevAttrComputePreemptionSupported);
    d->canUseHostPointerForRegisteredMem = (int)A(cudaDevAttrCanUseHostPointerForRegisteredMem);
    d->cooperativeLaunch = (int)A(cudaDevAttrCooperativeLaunch);
    d->sharedMemPerBlockOptin = (size_t)A(cudaDevAttrMaxSharedMemoryPerBlockOptin);
    d->pageableMemoryAccessUsesHostPageTables = (int)A(cudaDevAttrPageableMemoryAccessUsesHostPageTables);
    d->directManagedMemAccessFromHost = (int)A(cudaDevAttrDirectManagedMemAccessFromHost);
    d->maxBlocksPerMultiProcessor = (int)A(cudaDevAttrMaxBlocksPerMultiprocessor);
    d->accessPolicyMaxWindowSize = (int)A(cudaDevAttrMaxAccessPolicyWindowSize);
    d->reservedSharedMemPerBlock = (size_t)A(cudaDevAttrReservedSharedMemoryPerBlock);
    d->hostRegisterSupported = (int)A(cudaDevAttrHostRegisterSupported);
    d->sparseCudaArraySupported = (int)A(cudaDevAttrSparseCudaArraySupported);
    d->hostRegisterReadOnlySupported = (int)A(cudaDevAttrHostRegisterReadOnlySupported);
    d->timelineSemaphoreInteropSupported = (int)A(cudaDevAttrTimelineSemaphoreInteropSupported);
    d->memoryPoolsSupported = (int)A(cudaDevAttrMemoryPoolsSupported);
    d->gpuDirectRDMASupported = (int)A(cudaDevAttrGPUDirectRDMASupported);
    d->gpuDirectRDMAFlushWritesOptions = (unsigned)A(cudaDevAttrGPUDirectRDMAFlushWritesOptions);
    d->gpuDirectRDMAWritesOrdering = (int)A(cudaDevAttrGPUDirectRDMAWritesOrdering);
    d->memoryPoolSupportedHandleTypes = (unsigned)A(cudaDevAttrMemoryPoolSupportedHandleTypes);
    d->deferredMappingCudaArraySupported = (int)A(cudaDevAttrDeferredMappingCudaArraySupported);
    d->ipcEventSupported = (int)A(cudaDevAttrIpcEventSupport);
    d->clusterLaunch = (int)A(cudaDevAttrClusterLaunch);
    d->unifiedFunctionPointers = 0;     /* function pointers are not supported */
    d->deviceNumaConfig = (int)A(cudaDevAttrNumaConfig);
    d->deviceNumaId = (int)A(cudaDevAttrNumaId);
    d->mpsEnabled = (int)A(cudaDevAttrMpsEnabled);
    d->hostNumaId = (int)A(cudaDevAttrHostNumaId);
    d->gpuPciDeviceID = (unsigned)A(cudaDevAttrGpuPciDeviceId);
    d->gpuPciSubsystemID = (unsigned)A(cudaDevAttrGpuPciSubsystemId);
    d->hostNumaMultinodeIpcSupported = (int)A(cudaDevAttrHostNumaMultinodeIpcSupported);
#undef A
}
