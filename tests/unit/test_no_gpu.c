/* The one "no GPU" message (platform/no_gpu.h), whatever the runtime's
 * own wording. */
#include <string.h>

#include "gp_test.h"
#include "no_gpu.h"

GP_TEST(rel2_no_driver_says_no_gpu)
{
    gp_status st = gp_rt_no_gpu("cuda", GP_NO_GPU_NO_DRIVER, "CUDA driver version is insufficient for CUDA runtime version");
    GP_CHECK(st.code == GP_ERR_NO_GPU && gp_status_exit_code(&st) == 77);
    GP_CHECK(strstr(st.msg, "no GPU") && strstr(st.msg, "driver") && !strstr(st.msg, "insufficient"));
    st = gp_rt_no_gpu("cuda", GP_NO_GPU_NO_DEVICE, NULL);
    GP_CHECK(st.code == GP_ERR_NO_GPU && strstr(st.msg, "no GPU: the cuda driver sees no device"));
    return 0;
}
