/* i15-shapes: a stand-in for the Compute Sanitizer API's header with only the names phos_sanitizer.c uses (the same
   names and field names as the real sanitizer.h; values and layouts are this mock's own), so that the tool builds on a
   machine without the CUDA toolkit's compute-sanitizer and runs in the CPU tests over tests/fake_sanitizer.c */
#ifndef PHOS_FAKE_SANITIZER_H
#define PHOS_FAKE_SANITIZER_H
#include <cuda.h>
#include <stdint.h>
#include <stddef.h>
#define SANITIZERAPI
typedef enum { SANITIZER_SUCCESS = 0, SANITIZER_ERROR_INVALID_PARAMETER = 1 } SanitizerResult;
typedef enum { SANITIZER_CB_DOMAIN_RESOURCE, SANITIZER_CB_DOMAIN_LAUNCH, SANITIZER_CB_DOMAIN_GRAPHS, SANITIZER_CB_DOMAIN_SYNCHRONIZE } Sanitizer_CallbackDomain;
typedef uint32_t Sanitizer_CallbackId;
enum { SANITIZER_CBID_GRAPHS_LAUNCH_BEGIN, SANITIZER_CBID_GRAPHS_LAUNCH_END, SANITIZER_CBID_GRAPHS_NODE_LAUNCH_BEGIN };
enum { SANITIZER_CBID_LAUNCH_BEGIN, SANITIZER_CBID_LAUNCH_END };
enum { SANITIZER_CBID_RESOURCE_CONTEXT_DESTROY_STARTING, SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_ALLOC, SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_FREE,
 SANITIZER_CBID_RESOURCE_HOST_MEMORY_ALLOC, SANITIZER_CBID_RESOURCE_HOST_MEMORY_FREE, SANITIZER_CBID_RESOURCE_MEMORY_ALLOC_ASYNC,
 SANITIZER_CBID_RESOURCE_MEMORY_FREE_ASYNC, SANITIZER_CBID_RESOURCE_MODULE_LOADED, SANITIZER_CBID_RESOURCE_MODULE_UNLOAD_STARTING,
 SANITIZER_CBID_RESOURCE_STREAM_DESTROY_STARTING };
enum { SANITIZER_CBID_SYNCHRONIZE_CONTEXT_SYNCHRONIZED, SANITIZER_CBID_SYNCHRONIZE_STREAM_SYNCHRONIZED };
typedef enum { SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS, SANITIZER_INSTRUCTION_MEMCPY_ASYNC, SANITIZER_INSTRUCTION_BULK_COPY_GLOBAL_TO_SHARED,
 SANITIZER_INSTRUCTION_BULK_COPY_SHARED_TO_GLOBAL, SANITIZER_INSTRUCTION_BULK_REDUCTION_SHARED_TO_GLOBAL } Sanitizer_InstructionId;
#define SANITIZER_MEMORY_FLAG_MODULE 1
typedef struct Sanitizer_Stream_st *Sanitizer_StreamHandle;
typedef struct Sanitizer_Launch_st *Sanitizer_LaunchHandle;
typedef struct Sanitizer_Sub_st *Sanitizer_SubscriberHandle;
typedef void (*Sanitizer_CallbackFunc)(void *, Sanitizer_CallbackDomain, Sanitizer_CallbackId, const void *);
typedef struct { CUcontext context; CUmodule module; CUfunction function; const char *functionName; uint32_t gridDim_x, gridDim_y, gridDim_z, blockDim_x, blockDim_y, blockDim_z;
 Sanitizer_StreamHandle hStream, hApiStream; Sanitizer_LaunchHandle hLaunch; } Sanitizer_LaunchData;
typedef struct { int isGraphUpload; } Sanitizer_GraphLaunchData;
typedef struct { int nodeType; int isGraphUpload; Sanitizer_LaunchData launchData; } Sanitizer_GraphNodeLaunchData;
typedef struct { CUcontext context; uint64_t address, size; uint32_t flags; } Sanitizer_ResourceMemoryData;
typedef struct { CUcontext context; CUmodule module; size_t cubinSize; } Sanitizer_ResourceModuleData;
typedef struct { CUcontext context; Sanitizer_StreamHandle hStream; } Sanitizer_SynchronizeData;
typedef struct { CUcontext context; CUstream stream; Sanitizer_StreamHandle hStream; } Sanitizer_ResourceStreamData;
SanitizerResult sanitizerAddPatchesFromFile(const char *, CUcontext);
SanitizerResult sanitizerAlloc(CUcontext, void **, size_t);
SanitizerResult sanitizerAllocHost(CUcontext, void **, size_t);
SanitizerResult sanitizerEnableDomain(uint32_t, Sanitizer_SubscriberHandle, Sanitizer_CallbackDomain);
SanitizerResult sanitizerFree(CUcontext, void *);
SanitizerResult sanitizerMemcpyDeviceToHost(void *, void *, size_t, Sanitizer_StreamHandle);
SanitizerResult sanitizerMemcpyHostToDeviceAsync(void *, void *, size_t, Sanitizer_StreamHandle);
SanitizerResult sanitizerMemset(void *, int, size_t, Sanitizer_StreamHandle);
SanitizerResult sanitizerPatchInstructions(Sanitizer_InstructionId, CUmodule, const char *);
SanitizerResult sanitizerPatchModule(CUmodule);
SanitizerResult sanitizerUnpatchModule(CUmodule);
SanitizerResult sanitizerSetCallbackData(CUfunction, const void *);
SanitizerResult sanitizerSetLaunchCallbackData(Sanitizer_LaunchHandle, CUfunction, Sanitizer_StreamHandle, const void *);
SanitizerResult sanitizerStreamSynchronize(Sanitizer_StreamHandle);
SanitizerResult sanitizerSubscribe(Sanitizer_SubscriberHandle *, Sanitizer_CallbackFunc, void *);
#endif
