/*
 * Reference reader for the NVLink signals of issue 24, independent of Fabricscope's JNA code: dlopen libnvidia-ml,
 * dlsym each call (a missing entry point prints "symbol missing"), struct layouts of nvml.h 13.3.29
 * (NVIDIA/go-nvml 8b8585b, gen/nvml/nvml.h) and, for nvmlGpuFabricInfo_v4_t, the NVML 615 docs page. Prints one
 * line per GPU and call: "gpu N CALL rc=R ..." (R as NVML returned it). Built and run on the GPU machine:
 *   gcc -O1 -o /tmp/nvml-signals bench/nvml-signals.c -ldl && /tmp/nvml-signals
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef void *dev_t_;
typedef struct { unsigned int version; unsigned char bwModes[23]; unsigned char totalBwModes; } bwmodes_t;
typedef struct { unsigned int version; unsigned int bIsBest; unsigned char bwMode; } bwmode_t;
typedef struct { unsigned char ucodeType; unsigned int major, minor, subMinor; } fw_t;
typedef struct { unsigned int version; unsigned int isNvleEnabled; fw_t fw[100]; unsigned int numValidEntries; } info2_t;
typedef struct { unsigned int version; unsigned int isNvleEnabled; } info1_t;
typedef struct { unsigned int fieldId, scopeId; long long timestamp, latencyUsec; int valueType, nvmlReturn;
                 unsigned long long value; } field_t;
typedef struct { unsigned int version; unsigned char uuid[16]; int status; unsigned int cliqueId; unsigned char state;
                 unsigned int healthMask; unsigned char healthSummary; } fabric3_t;
typedef struct { unsigned char type; unsigned int id; } clique_t;
typedef struct { unsigned char uuid[16]; int status; clique_t cliques[64]; unsigned int numCliques; unsigned char state;
                 unsigned int healthMask; unsigned char healthSummary; unsigned char pad[3548]; } fabric4_t;

#define VER(t, v) ((unsigned int) (sizeof(t) | ((v) << 24)))

static void *lib;
static void *sym(const char *n) { return dlsym(lib, n); }

int main(void) {
    lib = dlopen("libnvidia-ml.so.1", RTLD_NOW);
    if (!lib) { printf("dlopen failed: %s\n", dlerror()); return 1; }
    int (*init)(void) = sym("nvmlInit_v2");
    int (*count)(unsigned int *) = sym("nvmlDeviceGetCount_v2");
    int (*handle)(unsigned int, dev_t_ *) = sym("nvmlDeviceGetHandleByIndex_v2");
    int (*fields)(dev_t_, int, field_t *) = sym("nvmlDeviceGetFieldValues");
    printf("nvmlInit_v2 rc=%d\n", init());
    unsigned int n = 0;
    count(&n);
    printf("sizes bwmodes=%zu bwmode=%zu info1=%zu info2=%zu fabric3=%zu\n", sizeof(bwmodes_t), sizeof(bwmode_t),
           sizeof(info1_t), sizeof(info2_t), sizeof(fabric3_t));
    int (*sysbw)(unsigned int *) = sym("nvmlSystemGetNvlinkBwMode");
    if (sysbw) {
        unsigned int mode = 99;
        int rc = sysbw(&mode);
        printf("nvmlSystemGetNvlinkBwMode rc=%d mode=%u\n", rc, mode);
    } else printf("nvmlSystemGetNvlinkBwMode symbol missing\n");
    for (unsigned int g = 0; g < n; g++) {
        dev_t_ d;
        if (handle(g, &d)) continue;
        int (*f)(dev_t_, void *);
        if ((f = sym("nvmlDeviceGetNvlinkBwMode"))) {
            bwmode_t m; memset(&m, 0, sizeof m); m.version = VER(bwmode_t, 1);
            int rc = f(d, &m);
            printf("gpu %u nvmlDeviceGetNvlinkBwMode rc=%d bIsBest=%u bwMode=%u\n", g, rc, m.bIsBest, m.bwMode);
        } else printf("gpu %u nvmlDeviceGetNvlinkBwMode symbol missing\n", g);
        if ((f = sym("nvmlDeviceGetNvlinkSupportedBwModes"))) {
            bwmodes_t m; memset(&m, 0, sizeof m); m.version = VER(bwmodes_t, 1);
            int rc = f(d, &m);
            printf("gpu %u nvmlDeviceGetNvlinkSupportedBwModes rc=%d total=%u\n", g, rc, m.totalBwModes);
        } else printf("gpu %u nvmlDeviceGetNvlinkSupportedBwModes symbol missing\n", g);
        if ((f = sym("nvmlDeviceGetNvLinkInfo"))) {
            info2_t m; memset(&m, 0, sizeof m); m.version = VER(info2_t, 2);
            int rc = f(d, &m);
            printf("gpu %u nvmlDeviceGetNvLinkInfo v2 rc=%d nvle=%u entries=%u\n", g, rc, m.isNvleEnabled, m.numValidEntries);
            for (unsigned int k = 0; rc == 0 && k < m.numValidEntries && k < 100; k++)
                printf("gpu %u firmware %u type=%u %u.%u.%u\n", g, k, m.fw[k].ucodeType, m.fw[k].major, m.fw[k].minor, m.fw[k].subMinor);
            info1_t m1; memset(&m1, 0, sizeof m1); m1.version = VER(info1_t, 1);
            rc = f(d, &m1);
            printf("gpu %u nvmlDeviceGetNvLinkInfo v1 rc=%d nvle=%u\n", g, rc, m1.isNvleEnabled);
        } else printf("gpu %u nvmlDeviceGetNvLinkInfo symbol missing\n", g);
        if ((f = sym("nvmlDeviceGetGpuFabricInfo_v4"))) {
            fabric4_t m; memset(&m, 0, sizeof m);
            int rc = f(d, &m);
            printf("gpu %u nvmlDeviceGetGpuFabricInfo_v4 rc=%d state=%u numCliques=%u mask=0x%x\n", g, rc, m.state, m.numCliques, m.healthMask);
        } else printf("gpu %u nvmlDeviceGetGpuFabricInfo_v4 symbol missing\n", g);
        if ((f = sym("nvmlDeviceGetGpuFabricInfoV"))) {
            fabric3_t m; memset(&m, 0, sizeof m); m.version = VER(fabric3_t, 3);
            int rc = f(d, &m);
            printf("gpu %u nvmlDeviceGetGpuFabricInfoV v3 rc=%d state=%u status=%d mask=0x%x gfm=%u summary=%u\n", g, rc, m.state,
                   m.status, m.healthMask, (m.healthMask >> 14) & 3, m.healthSummary);
        }
        for (unsigned int link = 0; link < 18; link++) {
            field_t v[3]; memset(v, 0, sizeof v);
            v[0].fieldId = 165; v[1].fieldId = 220; v[2].fieldId = 222;
            v[0].scopeId = v[1].scopeId = v[2].scopeId = link;
            int rc = fields(d, 3, v);
            printf("gpu %u link %u fields rc=%d state(rc=%d)=%llu effBer(rc=%d)=0x%llx symBer(rc=%d)=0x%llx\n", g, link, rc,
                   v[0].nvmlReturn, v[0].value, v[1].nvmlReturn, v[1].value, v[2].nvmlReturn, v[2].value);
        }
    }
    return 0;
}
