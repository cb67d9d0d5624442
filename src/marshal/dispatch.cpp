// loader_dispatch(): the OpenCL entry points of the ICD loader DL was linked with, as a
// cl_icd_dispatch table. The marshal library calls OpenCL only through such a table.
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include "dl/marshal.hpp"

namespace dl {
namespace {

cl_icd_dispatch make_loader_dispatch() {
  cl_icd_dispatch d{};
#define DL_ENTRY(name) d.name = &::name;
  // OpenCL 1.0
  DL_ENTRY(clGetPlatformIDs)
  DL_ENTRY(clGetPlatformInfo)
  DL_ENTRY(clGetDeviceIDs)
  DL_ENTRY(clGetDeviceInfo)
  DL_ENTRY(clCreateContext)
  DL_ENTRY(clCreateContextFromType)
  DL_ENTRY(clRetainContext)
  DL_ENTRY(clReleaseContext)
  DL_ENTRY(clGetContextInfo)
  DL_ENTRY(clCreateCommandQueue)
  DL_ENTRY(clRetainCommandQueue)
  DL_ENTRY(clReleaseCommandQueue)
  DL_ENTRY(clGetCommandQueueInfo)
  DL_ENTRY(clCreateBuffer)
  DL_ENTRY(clCreateImage2D)
  DL_ENTRY(clCreateImage3D)
  DL_ENTRY(clRetainMemObject)
  DL_ENTRY(clReleaseMemObject)
  DL_ENTRY(clGetSupportedImageFormats)
  DL_ENTRY(clGetMemObjectInfo)
  DL_ENTRY(clGetImageInfo)
  DL_ENTRY(clCreateSampler)
  DL_ENTRY(clRetainSampler)
  DL_ENTRY(clReleaseSampler)
  DL_ENTRY(clGetSamplerInfo)
  DL_ENTRY(clCreateProgramWithSource)
  DL_ENTRY(clCreateProgramWithBinary)
  DL_ENTRY(clRetainProgram)
  DL_ENTRY(clReleaseProgram)
  DL_ENTRY(clBuildProgram)
  DL_ENTRY(clUnloadCompiler)
  DL_ENTRY(clGetProgramInfo)
  DL_ENTRY(clGetProgramBuildInfo)
  DL_ENTRY(clCreateKernel)
  DL_ENTRY(clCreateKernelsInProgram)
  DL_ENTRY(clRetainKernel)
  DL_ENTRY(clReleaseKernel)
  DL_ENTRY(clSetKernelArg)
  DL_ENTRY(clGetKernelInfo)
  DL_ENTRY(clGetKernelWorkGroupInfo)
  DL_ENTRY(clWaitForEvents)
  DL_ENTRY(clGetEventInfo)
  DL_ENTRY(clRetainEvent)
  DL_ENTRY(clReleaseEvent)
  DL_ENTRY(clGetEventProfilingInfo)
  DL_ENTRY(clFlush)
  DL_ENTRY(clFinish)
  DL_ENTRY(clEnqueueReadBuffer)
  DL_ENTRY(clEnqueueWriteBuffer)
  DL_ENTRY(clEnqueueCopyBuffer)
  DL_ENTRY(clEnqueueReadImage)
  DL_ENTRY(clEnqueueWriteImage)
  DL_ENTRY(clEnqueueCopyImage)
  DL_ENTRY(clEnqueueCopyImageToBuffer)
  DL_ENTRY(clEnqueueCopyBufferToImage)
  DL_ENTRY(clEnqueueMapBuffer)
  DL_ENTRY(clEnqueueMapImage)
  DL_ENTRY(clEnqueueUnmapMemObject)
  DL_ENTRY(clEnqueueNDRangeKernel)
  DL_ENTRY(clEnqueueTask)
  DL_ENTRY(clEnqueueNativeKernel)
  DL_ENTRY(clEnqueueMarker)
  DL_ENTRY(clEnqueueWaitForEvents)
  DL_ENTRY(clEnqueueBarrier)
  DL_ENTRY(clGetExtensionFunctionAddress)
  // OpenCL 1.1
  DL_ENTRY(clSetEventCallback)
  DL_ENTRY(clCreateSubBuffer)
  DL_ENTRY(clSetMemObjectDestructorCallback)
  DL_ENTRY(clCreateUserEvent)
  DL_ENTRY(clSetUserEventStatus)
  DL_ENTRY(clEnqueueReadBufferRect)
  DL_ENTRY(clEnqueueWriteBufferRect)
  DL_ENTRY(clEnqueueCopyBufferRect)
  // OpenCL 1.2
  DL_ENTRY(clCreateSubDevices)
  DL_ENTRY(clRetainDevice)
  DL_ENTRY(clReleaseDevice)
  DL_ENTRY(clCreateImage)
  DL_ENTRY(clCreateProgramWithBuiltInKernels)
  DL_ENTRY(clCompileProgram)
  DL_ENTRY(clLinkProgram)
  DL_ENTRY(clUnloadPlatformCompiler)
  DL_ENTRY(clGetKernelArgInfo)
  DL_ENTRY(clEnqueueFillBuffer)
  DL_ENTRY(clEnqueueFillImage)
  DL_ENTRY(clEnqueueMigrateMemObjects)
  DL_ENTRY(clEnqueueMarkerWithWaitList)
  DL_ENTRY(clEnqueueBarrierWithWaitList)
  DL_ENTRY(clGetExtensionFunctionAddressForPlatform)
  // OpenCL 2.0
  DL_ENTRY(clCreateCommandQueueWithProperties)
  DL_ENTRY(clCreatePipe)
  DL_ENTRY(clGetPipeInfo)
  DL_ENTRY(clSVMAlloc)
  DL_ENTRY(clSVMFree)
  DL_ENTRY(clEnqueueSVMFree)
  DL_ENTRY(clEnqueueSVMMemcpy)
  DL_ENTRY(clEnqueueSVMMemFill)
  DL_ENTRY(clEnqueueSVMMap)
  DL_ENTRY(clEnqueueSVMUnmap)
  DL_ENTRY(clCreateSamplerWithProperties)
  DL_ENTRY(clSetKernelArgSVMPointer)
  DL_ENTRY(clSetKernelExecInfo)
  // OpenCL 2.1
  DL_ENTRY(clCloneKernel)
  DL_ENTRY(clCreateProgramWithIL)
  DL_ENTRY(clEnqueueSVMMigrateMem)
  DL_ENTRY(clGetDeviceAndHostTimer)
  DL_ENTRY(clGetHostTimer)
  DL_ENTRY(clGetKernelSubGroupInfo)
  DL_ENTRY(clSetDefaultDeviceCommandQueue)
  // OpenCL 2.2
  DL_ENTRY(clSetProgramReleaseCallback)
  DL_ENTRY(clSetProgramSpecializationConstant)
  // OpenCL 3.0
  DL_ENTRY(clCreateBufferWithProperties)
  DL_ENTRY(clCreateImageWithProperties)
  DL_ENTRY(clSetContextDestructorCallback)
#undef DL_ENTRY
  return d;
}

}  // namespace

const cl_icd_dispatch& loader_dispatch() {
  static const cl_icd_dispatch table = make_loader_dispatch();
  return table;
}

}  // namespace dl
