package dev.informer.test;

import org.springframework.boot.test.autoconfigure.TestSliceTestContextBootstrapper;

/**
 * {@link org.springframework.test.context.TestContextBootstrapper} for
 * {@link InformerTest @InformerTest}.
 */
class InformerTestContextBootstrapper extends TestSliceTestContextBootstrapper<InformerTest> {

}
