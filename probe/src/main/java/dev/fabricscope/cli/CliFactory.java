package dev.fabricscope.cli;

import java.lang.reflect.Constructor;
import picocli.CommandLine;

/** Makes picocli's command objects: those with a constructor taking the {@link CliEnvironment} get it. */
final class CliFactory implements CommandLine.IFactory {

    private final CliEnvironment env;

    CliFactory(CliEnvironment env) {
        this.env = env;
    }

    @Override
    public <K> K create(Class<K> cls) throws Exception {
        Constructor<K> withEnv;
        try {
            withEnv = cls.getDeclaredConstructor(CliEnvironment.class);
        } catch (NoSuchMethodException e) {
            return CommandLine.defaultFactory().create(cls);
        }
        withEnv.setAccessible(true);
        return withEnv.newInstance(env);
    }
}
