package dev.informer.runtime.kinds;

import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.WebSocket;
import org.jspecify.annotations.Nullable;

/**
 * The watch connection of one fabric8 informer: tells its {@link Arrivals} of every
 * message that arrives on it (an event or a bookmark), and ends it when nothing has
 * arrived for too long, as a connection that a lost NAT entry or load balancer state
 * black-holed never ends by itself.
 * <p>
 * fabric8 watches over a WebSocket; its listener learns of each message, and of an error,
 * which makes fabric8 watch again from the last resourceVersion it saw (no relist). This
 * connection wraps the listener of each WebSocket its informer opens (through
 * {@link #wrap(HttpClient) its HTTP client}): {@link #end} hands fabric8's listener a
 * timeout error, drops whatever the old connection still delivers (the new watch gets it
 * again from the server) and closes the old connection, which fabric8 aborts a minute
 * later if the close goes unanswered. The pongs of fabric8's pings are not visible:
 * fabric8 neither hands them to a listener nor checks them.
 * <p>
 * A watch fabric8 makes over plain HTTP ({@code Config#setOnlyHttpWatches}) is not seen:
 * nothing is reported, and {@link #end} does nothing.
 *
 * @since 0.1.0
 */
public final class WatchConnection {

	private static final String BOOKMARK = "{\"type\":\"BOOKMARK\"";

	private final Arrivals arrivals;

	private volatile @Nullable Open current;

	/**
	 * Create the connection of one fabric8 informer.
	 * @param arrivals told of every message
	 */
	public WatchConnection(Arrivals arrivals) {
		this.arrivals = arrivals;
	}

	/**
	 * End the current WebSocket, if one is open and not ended yet: fabric8 watches again
	 * from its last resourceVersion on a new connection.
	 * @param why what is wrong, as the error fabric8 gets says
	 * @return whether a WebSocket was ended
	 */
	public boolean end(String why) {
		Open open = this.current;
		if (open == null || !open.ended.compareAndSet(false, true)) {
			return false;
		}
		this.current = null;
		try {
			open.listener.onError(open.socket, new SocketTimeoutException(why));
		}
		finally {
			open.socket.sendClose(1000, why);
		}
		return true;
	}

	/**
	 * Return an HTTP client that sends everything through {@code client} and reports the
	 * WebSockets it opens to this connection.
	 * @param client the client to wrap
	 * @return the wrapping client
	 */
	HttpClient wrap(HttpClient client) {
		return new Client(client);
	}

	/**
	 * Told of what arrives on the watch connection, on the thread that received it.
	 */
	@FunctionalInterface
	public interface Arrivals {

		/**
		 * A WebSocket opened or a message arrived.
		 * @param bookmark whether the message was a bookmark
		 */
		void arrived(boolean bookmark);

	}

	private record Open(WebSocket socket, WebSocket.Listener listener, AtomicBoolean ended) {

	}

	private final class Listener implements WebSocket.Listener {

		private final WebSocket.Listener delegate;

		private final AtomicBoolean ended = new AtomicBoolean();

		Listener(WebSocket.Listener delegate) {
			this.delegate = delegate;
		}

		@Override
		public void onOpen(WebSocket webSocket) {
			WatchConnection.this.current = new Open(webSocket, this.delegate, this.ended);
			WatchConnection.this.arrivals.arrived(false);
			this.delegate.onOpen(webSocket);
		}

		@Override
		public void onMessage(WebSocket webSocket, String text) {
			if (this.ended.get()) {
				return;
			}
			WatchConnection.this.arrivals.arrived(text.startsWith(BOOKMARK));
			this.delegate.onMessage(webSocket, text);
		}

		@Override
		public void onMessage(WebSocket webSocket, ByteBuffer bytes) {
			if (this.ended.get()) {
				return;
			}
			WatchConnection.this.arrivals.arrived(false);
			this.delegate.onMessage(webSocket, bytes);
		}

		@Override
		public void onClose(WebSocket webSocket, int code, String reason) {
			if (this.ended.compareAndSet(false, true)) {
				this.delegate.onClose(webSocket, code, reason);
			}
		}

		@Override
		public void onError(WebSocket webSocket, Throwable error) {
			if (this.ended.compareAndSet(false, true)) {
				this.delegate.onError(webSocket, error);
			}
		}

	}

	private final class Client implements HttpClient {

		private final HttpClient delegate;

		Client(HttpClient delegate) {
			this.delegate = delegate;
		}

		@Override
		public void close() {
			this.delegate.close();
		}

		@Override
		public DerivedClientBuilder newBuilder() {
			return this.delegate.newBuilder();
		}

		@Override
		public <V> CompletableFuture<HttpResponse<V>> sendAsync(HttpRequest request, Class<V> type) {
			return this.delegate.sendAsync(request, type);
		}

		@Override
		public CompletableFuture<HttpResponse<AsyncBody>> consumeBytes(HttpRequest request,
				AsyncBody.Consumer<List<ByteBuffer>> consumer) {
			return this.delegate.consumeBytes(request, consumer);
		}

		@Override
		public WebSocket.Builder newWebSocketBuilder() {
			return new SocketBuilder(this.delegate.newWebSocketBuilder());
		}

		@Override
		public HttpRequest.Builder newHttpRequestBuilder() {
			return this.delegate.newHttpRequestBuilder();
		}

		@Override
		public boolean isClosed() {
			return this.delegate.isClosed();
		}

	}

	private final class SocketBuilder implements WebSocket.Builder {

		private final WebSocket.Builder delegate;

		SocketBuilder(WebSocket.Builder delegate) {
			this.delegate = delegate;
		}

		@Override
		public CompletableFuture<WebSocket> buildAsync(WebSocket.Listener listener) {
			return this.delegate.buildAsync(new Listener(listener));
		}

		@Override
		public WebSocket.Builder subprotocol(String protocol) {
			this.delegate.subprotocol(protocol);
			return this;
		}

		@Override
		public WebSocket.Builder header(String name, String value) {
			this.delegate.header(name, value);
			return this;
		}

		@Override
		public WebSocket.Builder setHeader(String k, String v) {
			this.delegate.setHeader(k, v);
			return this;
		}

		@Override
		public WebSocket.Builder uri(URI uri) {
			this.delegate.uri(uri);
			return this;
		}

		@Override
		public WebSocket.Builder connectTimeout(long timeout, TimeUnit unit) {
			this.delegate.connectTimeout(timeout, unit);
			return this;
		}

	}

}
