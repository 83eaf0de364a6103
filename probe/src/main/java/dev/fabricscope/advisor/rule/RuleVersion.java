package dev.fabricscope.advisor.rule;

/**
 * One modelled version of a framework's rules: which upstream copies (repository, commit, file) its rules follow.
 * Each framework has its own record implementing this, newest first in its {@link FrameworkRules#versions()}.
 */
public interface RuleVersion {

    /** The framework whose rules these are: sglang, vllm, flashinfer or nccl. */
    String framework();

    /** As given to {@code --framework-version NAME=ID}. */
    String id();

    /** What this version models, naming the upstream copies it follows. */
    String description();

    /** The upstream files it follows and the releases it is known to match (none by default: not read). */
    default Pedigree pedigree() {
        return new Pedigree(java.util.List.of(), null, null, java.util.List.of(), "not recorded");
    }
}
