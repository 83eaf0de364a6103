package dev.fabricscope.advisor.nccl;

import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.Partial;

/**
 * What NCCL does when a framework exports NCCL_CUMEM_ENABLE=0 for it (SGLang's older engines write it at start): the
 * chosen NCCL rule set's own verdicts on NCCL_CUMEM_ENABLE and on the MNNVL variable the user set, evaluated with
 * the exported value. Reference: backend-rules.md §1.7, §4.
 */
public final class NcclCumemExport {

    private NcclCumemExport() {
    }

    /** NCCL's worst answer with NCCL_CUMEM_ENABLE=0 (MNNVL silently off, or init stopping), or null where nothing changes. */
    public static Partial effectOfCumemOff(Eval e) {
        Eval off = e.with(NcclKnobs.CUMEM_ENABLE, "0");
        Verdict worst = NcclEnvVerdicts.bareVerdict(off, NcclKnobs.CUMEM_ENABLE);
        NcclVersion ver = e.version(NcclVersion.class);
        KnobSpec own = ver.readsMnnvl() ? NcclKnobs.MNNVL : ver.readsMnnvlEnable() ? NcclKnobs.MNNVL_ENABLE : null;
        if (own != null && e.isSet(own)) {
            Verdict mnnvl = NcclEnvVerdicts.bareVerdict(off, own);
            if (mnnvl.outcome().severity() < worst.outcome().severity()) {
                worst = mnnvl;
            }
        }
        if (worst.outcome() == Outcome.OK || worst.outcome() == Outcome.NOT_APPLICABLE) {
            return null;
        }
        return new Partial(worst.outcome(), worst.resolved(), worst.errorClass(), worst.message(), worst.when(),
                worst.why().startsWith("NCCL ") ? worst.why() : "NCCL " + ver.id() + ": " + worst.why(), worst.source());
    }
}
