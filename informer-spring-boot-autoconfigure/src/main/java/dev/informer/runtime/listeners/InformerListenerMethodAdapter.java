package dev.informer.runtime.listeners;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.ApplicationListenerMethodAdapter;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.SpelCompilerMode;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.expression.spel.support.StandardEvaluationContext;
import org.springframework.util.StringUtils;

/**
 * An {@code @EventListener} method of informer events, invoked for less than Spring's own
 * adapter costs per event: its SpEL {@code condition} is parsed once by a parser of its
 * own in {@link SpelCompilerMode#MIXED mixed} compiler mode, so that it runs as bytecode
 * once it has been interpreted often enough, whatever the application's
 * {@code spring.expression.compiler.mode}; and a singleton bean is looked up once.
 * <p>
 * The condition sees what Spring's own adapter offers it: the root object's {@code event}
 * and {@code args}, the argument as {@code #p0}, {@code #a0} and its parameter name, and
 * beans as {@code @name}; a result counts as true when it converts to
 * {@link Boolean#TRUE}. Arguments, invocation and result handling are Spring's.
 *
 * @see InformerEventListenerFactory
 * @since 0.1.0
 */
public class InformerListenerMethodAdapter extends ApplicationListenerMethodAdapter {

	private final @Nullable Expression condition;

	private final ParameterNameDiscoverer parameterNames;

	/**
	 * Where each evaluation gets its bean resolver, type converter and accessors from;
	 * shared, as Spring shares them, so that accessor caches outlive one event.
	 */
	private final StandardEvaluationContext delegates = new StandardEvaluationContext();

	private final String beanName;

	private final BeanFactory beanFactory;

	private volatile @Nullable Object singleton;

	/**
	 * Create an adapter for a listener method.
	 * @param beanName the name of the bean to invoke the method on
	 * @param targetClass the class the method is declared on
	 * @param method the listener method
	 * @param beanFactory the bean factory {@code @name} references resolve against
	 * @param classLoader the class loader the compiled condition is defined in
	 */
	public InformerListenerMethodAdapter(String beanName, Class<?> targetClass, Method method, BeanFactory beanFactory,
			@Nullable ClassLoader classLoader) {
		super(beanName, targetClass, method);
		String condition = getCondition();
		SpelExpressionParser parser = new SpelExpressionParser(
				new SpelParserConfiguration(SpelCompilerMode.MIXED, classLoader));
		this.condition = StringUtils.hasText(condition) ? parser.parseExpression(condition) : null;
		this.parameterNames = new DiscoveredOnce(getTargetMethod());
		this.delegates.setBeanResolver(new BeanFactoryResolver(beanFactory));
		// the delegates are created lazily: create them now, not from concurrent events
		this.delegates.applyDelegatesTo(new StandardEvaluationContext());
		this.beanName = beanName;
		this.beanFactory = beanFactory;
	}

	@Override
	public void processEvent(ApplicationEvent event) {
		@Nullable Object[] args = resolveArguments(event);
		if (args != null && conditionHolds(event, args)) {
			Object result = doInvoke(args);
			if (result != null) {
				handleResult(result);
			}
		}
	}

	@Override
	public boolean shouldHandle(ApplicationEvent event) {
		@Nullable Object[] args = resolveArguments(event);
		return args != null && conditionHolds(event, args);
	}

	private boolean conditionHolds(ApplicationEvent event, @Nullable Object[] args) {
		if (this.condition == null) {
			return true;
		}
		MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(new ConditionRoot(event, args),
				getTargetMethod(), args, this.parameterNames);
		// the delegates Spring's evaluator copies to every context, shared instead: an
		// evaluation only reads them
		context.setConstructorResolvers(this.delegates.getConstructorResolvers());
		context.setMethodResolvers(this.delegates.getMethodResolvers());
		context.setPropertyAccessors(this.delegates.getPropertyAccessors());
		context.setIndexAccessors(this.delegates.getIndexAccessors());
		context.setTypeLocator(this.delegates.getTypeLocator());
		context.setTypeConverter(this.delegates.getTypeConverter());
		context.setBeanResolver(this.delegates.getBeanResolver());
		return Boolean.TRUE.equals(this.condition.getValue(context, Boolean.class));
	}

	/**
	 * Look a singleton up once, not for every event as Spring does: informers publish
	 * often and a singleton stays the same object.
	 */
	@Override
	protected Object getTargetBean() {
		Object bean = this.singleton;
		if (bean == null) {
			bean = super.getTargetBean();
			if (this.beanFactory.isSingleton(this.beanName)) {
				this.singleton = bean;
			}
		}
		return bean;
	}

	/**
	 * What a condition sees as {@code #root}: the properties of Spring's own root object.
	 * Public, so that compiled code may read it.
	 *
	 * @param event the event
	 * @param args the arguments the listener method is invoked with
	 */
	public record ConditionRoot(ApplicationEvent event, @Nullable Object[] args) {

	}

	/**
	 * The parameter names of the one listener method, discovered once rather than for
	 * every event whose condition names a parameter.
	 */
	private static final class DiscoveredOnce implements ParameterNameDiscoverer {

		private final Method method;

		private final @Nullable String @Nullable [] names;

		DiscoveredOnce(Method method) {
			this.method = method;
			this.names = DefaultParameterNameDiscoverer.getSharedInstance().getParameterNames(method);
		}

		@Override
		public @Nullable String @Nullable [] getParameterNames(Method method) {
			return (method == this.method || method.equals(this.method)) ? this.names
					: DefaultParameterNameDiscoverer.getSharedInstance().getParameterNames(method);
		}

		@Override
		public @Nullable String @Nullable [] getParameterNames(Constructor<?> ctor) {
			return DefaultParameterNameDiscoverer.getSharedInstance().getParameterNames(ctor);
		}

	}

}
