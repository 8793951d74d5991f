package dev.informer.test;

import java.io.IOException;

import org.springframework.boot.test.context.filter.annotation.StandardAnnotationCustomizableTypeExcludeFilter;
import org.springframework.context.event.EventListener;
import org.springframework.core.type.classreading.MetadataReader;
import org.springframework.core.type.classreading.MetadataReaderFactory;

/**
 * {@link org.springframework.boot.context.TypeExcludeFilter} for
 * {@link InformerTest @InformerTest}: by default it includes only components that declare
 * {@link EventListener @EventListener} methods.
 */
final class InformerTypeExcludeFilter extends StandardAnnotationCustomizableTypeExcludeFilter<InformerTest> {

	InformerTypeExcludeFilter(Class<?> testClass) {
		super(testClass);
	}

	@Override
	protected boolean defaultInclude(MetadataReader metadataReader, MetadataReaderFactory metadataReaderFactory)
			throws IOException {
		return metadataReader.getAnnotationMetadata().hasAnnotatedMethods(EventListener.class.getName())
				|| super.defaultInclude(metadataReader, metadataReaderFactory);
	}

}
