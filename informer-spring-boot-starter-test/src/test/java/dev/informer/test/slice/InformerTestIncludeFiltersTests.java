package dev.informer.test.slice;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.ComponentScan.Filter;
import org.springframework.context.annotation.FilterType;

import dev.informer.test.InformerTest;
import dev.informer.test.InformerTest.Server;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A test names a component the slice leaves out by default.
 */
@InformerTest(server = Server.MOCK,
		includeFilters = @Filter(type = FilterType.ASSIGNABLE_TYPE, classes = PlainService.class))
class InformerTestIncludeFiltersTests {

	@Autowired
	ApplicationContext context;

	@Test
	void includesTheNamedComponent() {
		assertThat(this.context.getBeansOfType(PlainService.class)).hasSize(1);
		assertThat(this.context.getBeansOfType(ConfigMapNames.class)).hasSize(1);
	}

}
