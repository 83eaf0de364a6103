package dev.fabricscope.advisor.nccl;

import dev.fabricscope.advisor.api.SourceRef;

/**
 * The NCCL lines one rule set follows, at the last tag of its releases (read in the bare mirror of NVIDIA/nccl); null
 * where that release has no such code. Reference: backend-rules.md §4.
 *
 * @param nvlsGate         ncclNvlsInit's early return (NCCL_NVLS_ENABLE=0, too few GPUs, MNNVL at 2.20)
 * @param nvlsInit         where 2 reads CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED (and 1 forces nvlsSupport, from 2.18)
 * @param nvlsSearch       the NVLS graph dropped without an NVSwitch or below SM90 (init then clears nvlsSupport)
 * @param nvlsAlloc        cuMulticastGetGranularity, where a forced NVLS without multicast fails
 * @param mnnvlParam       where NCCL declares its MNNVL variable (NCCL_MNNVL at 2.20, NCCL_MNNVL_ENABLE from 2.21)
 * @param mnnvlGate        when NCCL checks MNNVL at all
 * @param mnnvlCumem       MNNVL off without cuMem
 * @param mnnvlFabricAttr  MNNVL off without CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED
 * @param mnnvlFabricState MNNVL off when a rank's fabric state is not COMPLETED
 * @param mnnvlZeroUuid    MNNVL off when a cluster UUID is zero
 * @param mnnvlForced      NCCL_MNNVL(_ENABLE)=1 without MNNVL: "MNNVL is not supported on this system" (2.20–2.24)
 * @param mnnvlImexChannel the FABRIC allocation that needs an IMEX channel (2.25 on)
 * @param mnnvlImexExport  the export/import through the IMEX daemon (2.25 on)
 * @param p2pDisable       NCCL_P2P_DISABLE=1 sets the P2P level to LOC (0)
 * @param p2pLevel         NCCL_P2P_LEVEL read as a path-type name or an old-style number
 * @param p2pCompare       a GPU pair uses P2P only when its path type is at most the P2P level
 * @param nvlsBind         cuMulticastBindMem, where NVSwitches without a working Fabric Manager fail
 */
record NcclSetSources(SourceRef nvlsGate, SourceRef nvlsInit, SourceRef nvlsSearch, SourceRef nvlsAlloc, SourceRef mnnvlParam,
                      SourceRef mnnvlGate, SourceRef mnnvlCumem, SourceRef mnnvlFabricAttr, SourceRef mnnvlFabricState,
                      SourceRef mnnvlZeroUuid, SourceRef mnnvlForced, SourceRef mnnvlImexChannel, SourceRef mnnvlImexExport,
                      SourceRef p2pDisable, SourceRef p2pLevel, SourceRef p2pCompare, SourceRef nvlsBind) {

    private static final String R = NcclSources.REPO;
    /** v2.17.1-1 (2023-03-01). */
    static final String C2171 = "5d3ab08b69754cb863ab1bf6e3fb6f7612bb725b";
    /** v2.18.6-1 (2023-10-10). */
    static final String C2186 = "0b083e52096c387bad7a5c5c65b26a9dca54de8c";
    /** v2.19.4-1 (2023-11-13). */
    static final String C2194 = "88d44d777f6970bdbf6610badcbd7e25a05380f0";
    /** v2.20.3-1 (2024-02-13). */
    static final String C2203 = "b6475625fbcaa2c3c0e50eed2fa1255d7514d4a2";
    /** v2.26.6-1 (2025-05-20). */
    static final String C2266 = "8171af656bb3c47c8fc60b7cd49ae0c7494de664";
    /** v2.28.9-1 (2025-11-10). */
    static final String C2289 = "dbc86fd06e8b0c4517b95d8958a09ccacf9520c9";
    /** v2.28.3-1 (2025-09-02). */
    static final String C2283 = "f1308997d0420148b1be1c24d63f19d902ae589b";

    /** NCCL 2.17.1: NVLS within one node, the attribute read for any non-zero value; no MNNVL. */
    static final NcclSetSources V2_17 = new NcclSetSources(new SourceRef(R, C2171, "src/transport/nvls.cc", "232"),
            new SourceRef(R, C2171, "src/transport/nvls.cc", "229-244"), null, new SourceRef(R, C2171, "src/transport/nvls.cc", "70"), null, null, null, null, null,
            null, null, null, null, new SourceRef(R, C2171, "src/graph/paths.cc", "218"), new SourceRef(R, C2171, "src/graph/paths.cc", "224-238"),
            new SourceRef(R, C2171, "src/graph/paths.cc", "300"), new SourceRef(R, C2171, "src/transport/nvls.cc", "176"));

    /** NCCL 2.18.1–2.18.6 (lines at v2.18.6-1): the same rules as 2.19, CUCHECK without the error code. */
    static final NcclSetSources V2_18 = new NcclSetSources(new SourceRef(R, C2186, "src/transport/nvls.cc", "239"),
            new SourceRef(R, C2186, "src/transport/nvls.cc", "247-253"), new SourceRef(R, C2186, "src/graph/search.cc", "848"), new SourceRef(R, C2186, "src/transport/nvls.cc", "55"),
            null, null, null, null, null, null, null, null, null, new SourceRef(R, C2186, "src/graph/paths.cc", "218"),
            new SourceRef(R, C2186, "src/graph/paths.cc", "224-238"), new SourceRef(R, C2186, "src/graph/paths.cc", "300"), new SourceRef(R, C2186, "src/transport/nvls.cc", "165"));

    /** NCCL 2.19.1–2.19.4 (lines at v2.19.4-1). */
    static final NcclSetSources V2_19 = new NcclSetSources(new SourceRef(R, C2194, "src/transport/nvls.cc", "251"),
            new SourceRef(R, C2194, "src/transport/nvls.cc", "259-266"), new SourceRef(R, C2194, "src/graph/search.cc", "881"), new SourceRef(R, C2194, "src/transport/nvls.cc", "68"),
            null, null, null, null, null, null, null, null, null, new SourceRef(R, C2194, "src/graph/paths.cc", "218"),
            new SourceRef(R, C2194, "src/graph/paths.cc", "224-238"), new SourceRef(R, C2194, "src/graph/paths.cc", "300"), new SourceRef(R, C2194, "src/transport/nvls.cc", "169"));

    /** NCCL 2.20.3: NCCL_MNNVL, decided in initTransportsRank for every communicator, one node too (init.cc:881-923). */
    static final NcclSetSources V2_20_3 = new NcclSetSources(new SourceRef(R, C2203, "src/transport/nvls.cc", "239-240"),
            new SourceRef(R, C2203, "src/transport/nvls.cc", "248-255"), new SourceRef(R, C2203, "src/graph/search.cc", "882"),
            new SourceRef(R, C2203, "src/transport/nvls.cc", "58"), new SourceRef(R, C2203, "src/init.cc", "820"),
            new SourceRef(R, C2203, "src/init.cc", "881-900"), new SourceRef(R, C2203, "src/init.cc", "902"),
            new SourceRef(R, C2203, "src/init.cc", "911-913"), new SourceRef(R, C2203, "src/init.cc", "890"),
            new SourceRef(R, C2203, "src/init.cc", "893"), new SourceRef(R, C2203, "src/init.cc", "918-921"), null, null,
            new SourceRef(R, C2203, "src/graph/paths.cc", "218"), new SourceRef(R, C2203, "src/graph/paths.cc", "224-238"),
            new SourceRef(R, C2203, "src/graph/paths.cc", "300"), new SourceRef(R, C2203, "src/transport/nvls.cc", "157"));

    /** NCCL 2.20.5 (v2.20.5-1): NCCL_MNNVL, decided in initTransportsRank for several nodes (init.cc:884). */
    static final NcclSetSources V2_20 = new NcclSetSources(new SourceRef(R, NcclSources.COMMIT_2_20, "src/transport/nvls.cc", "239-240"),
            new SourceRef(R, NcclSources.COMMIT_2_20, "src/transport/nvls.cc", "248-255"), new SourceRef(R, NcclSources.COMMIT_2_20, "src/graph/search.cc", "882"),
            new SourceRef(R, NcclSources.COMMIT_2_20, "src/transport/nvls.cc", "58"), NcclSources.MNNVL_PARAM_2_20,
            new SourceRef(R, NcclSources.COMMIT_2_20, "src/init.cc", "884-902"), new SourceRef(R, NcclSources.COMMIT_2_20, "src/init.cc", "904"),
            new SourceRef(R, NcclSources.COMMIT_2_20, "src/init.cc", "913-915"), new SourceRef(R, NcclSources.COMMIT_2_20, "src/init.cc", "892"),
            new SourceRef(R, NcclSources.COMMIT_2_20, "src/init.cc", "895"), new SourceRef(R, NcclSources.COMMIT_2_20, "src/init.cc", "920-923"), null, null,
            new SourceRef(R, NcclSources.COMMIT_2_20, "src/graph/paths.cc", "218"), new SourceRef(R, NcclSources.COMMIT_2_20, "src/graph/paths.cc", "224-238"),
            new SourceRef(R, NcclSources.COMMIT_2_20, "src/graph/paths.cc", "300"), new SourceRef(R, NcclSources.COMMIT_2_20, "src/transport/nvls.cc", "157"));

    /** NCCL 2.21.5–2.24.3 (lines at v2.24.3-1): NCCL_MNNVL_ENABLE, checkMNNVL in init.cc. */
    static final NcclSetSources V2_21 = new NcclSetSources(new SourceRef(R, NcclSources.C2243, "src/transport/nvls.cc", "155"),
            new SourceRef(R, NcclSources.C2243, "src/transport/nvls.cc", "163-170"), new SourceRef(R, NcclSources.C2243, "src/graph/search.cc", "973"),
            new SourceRef(R, NcclSources.C2243, "src/transport/nvls.cc", "210"), new SourceRef(R, NcclSources.C2243, "src/init.cc", "639"),
            new SourceRef(R, NcclSources.C2243, "src/init.cc", "685"), new SourceRef(R, NcclSources.C2243, "src/init.cc", "650-651"),
            new SourceRef(R, NcclSources.C2243, "src/init.cc", "660-661"), new SourceRef(R, NcclSources.C2243, "src/init.cc", "664"),
            new SourceRef(R, NcclSources.C2243, "src/init.cc", "675"), NcclSources.MNNVL_FORCED_2_24, null, null,
            new SourceRef(R, NcclSources.C2243, "src/graph/paths.cc", "217"), new SourceRef(R, NcclSources.C2243, "src/graph/paths.cc", "224-238"),
            new SourceRef(R, NcclSources.C2243, "src/graph/paths.cc", "315"), new SourceRef(R, NcclSources.C2243, "src/transport/nvls.cc", "245"));

    /** NCCL 2.25.1–2.26.6 (lines at v2.26.6-1): mnnvl.cc, no P2P-level gate, a failed FABRIC allocation is silent. */
    static final NcclSetSources V2_25 = new NcclSetSources(new SourceRef(R, C2266, "src/transport/nvls.cc", "157"),
            new SourceRef(R, C2266, "src/transport/nvls.cc", "165-172"), new SourceRef(R, C2266, "src/graph/search.cc", "973"), new SourceRef(R, C2266, "src/transport/nvls.cc", "218"),
            new SourceRef(R, C2266, "src/init.cc", "659"), new SourceRef(R, C2266, "src/init.cc", "741"), new SourceRef(R, C2266, "src/mnnvl.cc", "14-15"),
            new SourceRef(R, C2266, "src/mnnvl.cc", "25"), new SourceRef(R, C2266, "src/mnnvl.cc", "28"), new SourceRef(R, C2266, "src/mnnvl.cc", "39"), null,
            new SourceRef(R, C2266, "src/mnnvl.cc", "60-61"), new SourceRef(R, C2266, "src/mnnvl.cc", "69"), new SourceRef(R, C2266, "src/graph/paths.cc", "217"),
            new SourceRef(R, C2266, "src/graph/paths.cc", "224-238"), new SourceRef(R, C2266, "src/graph/paths.cc", "315"), new SourceRef(R, C2266, "src/transport/nvls.cc", "254"));

    /** NCCL 2.27.3–2.28.3 (lines at v2.28.3-1): the P2P level gates the check; NVLS still needs more than 2 GPUs; bind as 2.28.9. */
    static final NcclSetSources V2_27 = new NcclSetSources(new SourceRef(R, C2283, "src/transport/nvls.cc", "160"),
            new SourceRef(R, C2283, "src/transport/nvls.cc", "168-175"), new SourceRef(R, C2283, "src/graph/search.cc", "1012"), new SourceRef(R, C2283, "src/transport/nvls.cc", "240"),
            new SourceRef(R, C2283, "src/init.cc", "720"), new SourceRef(R, C2283, "src/init.cc", "817-818"), new SourceRef(R, C2283, "src/mnnvl.cc", "14-15"),
            new SourceRef(R, C2283, "src/mnnvl.cc", "25"), new SourceRef(R, C2283, "src/mnnvl.cc", "28"), new SourceRef(R, C2283, "src/mnnvl.cc", "43"), null,
            new SourceRef(R, C2283, "src/mnnvl.cc", "67"), new SourceRef(R, C2283, "src/mnnvl.cc", "78"), new SourceRef(R, C2283, "src/graph/paths.cc", "224"),
            new SourceRef(R, C2283, "src/graph/paths.cc", "231-245"), new SourceRef(R, C2283, "src/graph/paths.cc", "326"), new SourceRef(R, C2283, "src/transport/nvls.cc", "278-292"));

    /** NCCL 2.28.7–2.28.9 (lines at v2.28.9-1): NVLS from 2 GPUs; a failed multicast bind is silent unless NVLS is forced. */
    static final NcclSetSources V2_28_7 = new NcclSetSources(new SourceRef(R, C2289, "src/transport/nvls.cc", "161"),
            new SourceRef(R, C2289, "src/transport/nvls.cc", "169-176"), new SourceRef(R, C2289, "src/graph/search.cc", "1036"),
            new SourceRef(R, C2289, "src/transport/nvls.cc", "241"), new SourceRef(R, C2289, "src/init.cc", "740"),
            new SourceRef(R, C2289, "src/init.cc", "913-914"), new SourceRef(R, C2289, "src/mnnvl.cc", "14-15"),
            new SourceRef(R, C2289, "src/mnnvl.cc", "25"), new SourceRef(R, C2289, "src/mnnvl.cc", "28"),
            new SourceRef(R, C2289, "src/mnnvl.cc", "43"), null, new SourceRef(R, C2289, "src/mnnvl.cc", "67"),
            new SourceRef(R, C2289, "src/mnnvl.cc", "78"), new SourceRef(R, C2289, "src/graph/paths.cc", "224"),
            new SourceRef(R, C2289, "src/graph/paths.cc", "231-245"), new SourceRef(R, C2289, "src/graph/paths.cc", "330"),
            new SourceRef(R, C2289, "src/transport/nvls.cc", "279-293"));

    /** NCCL 2.29.2–2.30.7 (lines at 5067397c, the constants of {@link NcclSources}). */
    static final NcclSetSources NEWEST = new NcclSetSources(new SourceRef(R, NcclSources.C2307, "src/transport/nvls.cc", "262"), NcclSources.NVLS_INIT,
            NcclSources.NVLS_SEARCH, NcclSources.NVLS_ALLOC, new SourceRef(R, NcclSources.C2307, "src/init.cc", "862"),
            NcclSources.MNNVL_GATE, NcclSources.MNNVL_CUMEM, NcclSources.MNNVL_FABRIC_ATTR,
            NcclSources.MNNVL_FABRIC_STATE, NcclSources.MNNVL_ZERO_UUID, null, NcclSources.MNNVL_IMEX_CHANNEL, NcclSources.MNNVL_IMEX_EXPORT,
            NcclSources.P2P_LEVEL, new SourceRef(R, NcclSources.C2307, "src/graph/paths.cc", "257-272"), new SourceRef(R, NcclSources.C2307, "src/graph/paths.cc", "368"), NcclSources.USER_LOG);
}
