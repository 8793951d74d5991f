package dev.informer.runtime.status;

import dev.informer.watch.KubernetesErrors;
import dev.informer.watch.RelistReason;

/**
 * Why one fabric8 informer lists next, told as it happens on fabric8's thread: its first
 * list for the reason it was created, each later one because fabric8 relisted by itself
 * after 410 Gone or after an error. The status takes the reason with the list's start.
 *
 * @since 0.1.0
 */
public final class ListTrigger {

	private volatile RelistReason next;

	/**
	 * Create the trigger of a fabric8 informer.
	 * @param first why it lists first: {@link RelistReason#INITIAL} for a watch's start,
	 * else the reason of the relist or replacement that created it
	 */
	public ListTrigger(RelistReason first) {
		this.next = first;
	}

	/**
	 * Return why the list starting now started.
	 * @return the reason
	 */
	public RelistReason next() {
		return this.next;
	}

	/**
	 * A list completed: without an error first, fabric8 only lists again after 410 Gone.
	 */
	public void listed() {
		this.next = RelistReason.GONE;
	}

	/**
	 * An error occurred: fabric8 lists again after it, unless it resumes the watch.
	 * @param ex the error
	 */
	public void failed(Throwable ex) {
		this.next = (KubernetesErrors.httpCode(ex) == 410) ? RelistReason.GONE : RelistReason.ERROR;
	}

}
