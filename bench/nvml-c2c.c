/*
 * Reference reader for the host-link readings of issue 27, independent of Fabricscope's JNA code: dlopen
 * libnvidia-ml, dlsym each call (a missing entry point prints "symbol missing"), and per GPU print
 * nvmlDeviceGetC2cModeInfoV, nvmlDeviceGetNumaNodeId and the C2C field values (170 link count, then 171 status and
 * 172 max bandwidth per link, scope = link). All calls read only. One line per GPU and call: "gpu N CALL rc=R ...".
 *
 * Layouts of nvml.h 12.6.77 and 13.3.29 (NVIDIA/go-nvml 7ec3ff8 and 8b8585b, gen/nvml/nvml.h): nvmlC2cModeInfo_v1_t
 * is one unsigned int (4 bytes, no version member); nvmlFieldValue_t is 40 bytes. Compiled against a real header,
 * the same file checks that (gcc -DWITH_NVML_H -I DIR_WITH_NVML_H -fsyntax-only bench/nvml-c2c.c).
 * Built and run on the GPU machine:
 *   gcc -O1 -o /tmp/nvml-c2c bench/nvml-c2c.c -ldl && /tmp/nvml-c2c
 */
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>

typedef void *dev_t_;
typedef struct { unsigned int isC2cEnabled; } c2c_t;
typedef struct { unsigned int fieldId, scopeId; long long timestamp, latencyUsec; int valueType, nvmlReturn;
                 unsigned long long value; } field_t;

#ifdef WITH_NVML_H
#include "nvml.h"
_Static_assert(sizeof(nvmlC2cModeInfo_v1_t) == sizeof(c2c_t), "nvmlC2cModeInfo_v1_t is 4 bytes");
_Static_assert(offsetof(nvmlC2cModeInfo_v1_t, isC2cEnabled) == 0, "isC2cEnabled at 0");
_Static_assert(nvmlC2cModeInfo_v1 == 0x01000004, "version macro: sizeof 4 | 1 << 24");
_Static_assert(sizeof(nvmlFieldValue_t) == sizeof(field_t), "nvmlFieldValue_t is 40 bytes");
_Static_assert(offsetof(nvmlFieldValue_t, valueType) == 24 && offsetof(nvmlFieldValue_t, nvmlReturn) == 28
               && offsetof(nvmlFieldValue_t, value) == 32, "nvmlFieldValue_t offsets");
_Static_assert(NVML_FI_DEV_C2C_LINK_COUNT == 170 && NVML_FI_DEV_C2C_LINK_GET_STATUS == 171
               && NVML_FI_DEV_C2C_LINK_GET_MAX_BW == 172, "C2C field ids");
#endif

static void *lib;
static void *sym(const char *n) { return dlsym(lib, n); }

static void field(int (*fields)(dev_t_, int, field_t *), unsigned int g, dev_t_ d, unsigned int id, unsigned int scope) {
    field_t f = {0};
    f.fieldId = id;
    f.scopeId = scope;
    int rc = fields(d, 1, &f);
    printf("gpu %u nvmlDeviceGetFieldValues(%u, scope %u) rc=%d nvmlReturn=%d valueType=%d value=%llu\n", g, id, scope, rc,
           f.nvmlReturn, f.valueType, f.value);
}

int main(void) {
    lib = dlopen("libnvidia-ml.so.1", RTLD_NOW);
    if (!lib) { printf("dlopen failed: %s\n", dlerror()); return 1; }
    int (*init)(void) = sym("nvmlInit_v2");
    int (*count)(unsigned int *) = sym("nvmlDeviceGetCount_v2");
    int (*handle)(unsigned int, dev_t_ *) = sym("nvmlDeviceGetHandleByIndex_v2");
    int (*fields)(dev_t_, int, field_t *) = sym("nvmlDeviceGetFieldValues");
    int (*c2c)(dev_t_, c2c_t *) = sym("nvmlDeviceGetC2cModeInfoV");
    int (*numa)(dev_t_, unsigned int *) = sym("nvmlDeviceGetNumaNodeId");
    printf("nvmlInit_v2 rc=%d\n", init());
    unsigned int n = 0;
    count(&n);
    for (unsigned int g = 0; g < n; g++) {
        dev_t_ d;
        if (handle(g, &d) != 0) { printf("gpu %u no handle\n", g); continue; }
        if (!c2c) {
            printf("gpu %u nvmlDeviceGetC2cModeInfoV symbol missing\n", g);
        } else {
            c2c_t m[4] = {{0}}; /* room to spare, as the JNA backend gives */
            int rc = c2c(d, m);
            printf("gpu %u nvmlDeviceGetC2cModeInfoV rc=%d isC2cEnabled=%u\n", g, rc, m[0].isC2cEnabled);
        }
        if (!numa) {
            printf("gpu %u nvmlDeviceGetNumaNodeId symbol missing\n", g);
        } else {
            unsigned int node = 0;
            int rc = numa(d, &node);
            printf("gpu %u nvmlDeviceGetNumaNodeId rc=%d node=%u\n", g, rc, node);
        }
        field_t c = {0};
        c.fieldId = 170;
        int rc = fields(d, 1, &c);
        printf("gpu %u nvmlDeviceGetFieldValues(170, scope 0) rc=%d nvmlReturn=%d valueType=%d value=%llu\n", g, rc,
               c.nvmlReturn, c.valueType, c.value);
        unsigned int links = rc == 0 && c.nvmlReturn == 0 ? (unsigned int) c.value : 0;
        for (unsigned int l = 0; l < links && l < 64; l++) {
            field(fields, g, d, 171, l);
            field(fields, g, d, 172, l);
        }
    }
    return 0;
}
