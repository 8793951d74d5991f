package dev.informer.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A loopback TCP proxy between a client and the API server, so tests can cut the
 * connection (reset every open connection and refuse new ones) and restore it without
 * restarting the server, or freeze it (a network blip: connections stay open, nothing
 * flows) and thaw it.
 */
public final class TcpProxy implements AutoCloseable {

	private final int port;

	private volatile ServerSocket listener;

	private final InetSocketAddress upstream;

	private final ExecutorService threads = Executors.newCachedThreadPool((task) -> {
		Thread thread = new Thread(task, "tcp-proxy");
		thread.setDaemon(true);
		return thread;
	});

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private final AtomicInteger accepted = new AtomicInteger();

	private volatile boolean cut;

	private final Object thawed = new Object();

	private volatile boolean frozen;

	private volatile boolean closed;

	private final AtomicInteger held = new AtomicInteger();

	/**
	 * Return whether the proxy currently refuses connections.
	 * @return whether cut
	 */
	public boolean isCut() {
		return this.cut;
	}

	public TcpProxy(String upstreamHost, int upstreamPort) throws IOException {
		this.upstream = new InetSocketAddress(upstreamHost, upstreamPort);
		this.listener = listen(0);
		this.port = this.listener.getLocalPort();
		this.threads.execute(this::acceptLoop);
	}

	private ServerSocket listen(int port) throws IOException {
		ServerSocket socket = new ServerSocket();
		socket.setReuseAddress(true);
		socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
		return socket;
	}

	// right after a close the kernel may still hold the port for a moment
	private ServerSocket listenAgain() throws IOException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
		while (true) {
			try {
				return listen(this.port);
			}
			catch (BindException ex) {
				if (System.nanoTime() > deadline) {
					throw ex;
				}
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
			}
		}
	}

	public int getPort() {
		return this.port;
	}

	/**
	 * Return how many client connections the proxy accepted.
	 * @return the count
	 */
	public int getAccepted() {
		return this.accepted.get();
	}

	/**
	 * Reset every open connection and refuse new ones (connection refused) until
	 * {@link #restore()}.
	 */
	public synchronized void cut() throws IOException {
		this.cut = true;
		this.listener.close();
		for (Socket socket : this.sockets) {
			reset(socket);
		}
		this.sockets.clear();
	}

	/**
	 * Hold every byte in both directions, as a network blip does: open connections stay
	 * open and new ones are accepted, but nothing is forwarded until {@link #thaw()};
	 * then what was held flows, as TCP retransmits after a blip. Whatever the client or
	 * the server gave up on meanwhile (a timed-out request, a closed connection) is
	 * theirs to notice.
	 */
	public void freeze() {
		this.frozen = true;
	}

	/**
	 * Forward again what {@link #freeze()} held, and everything after it.
	 */
	public void thaw() {
		synchronized (this.thawed) {
			this.frozen = false;
			this.thawed.notifyAll();
		}
	}

	/**
	 * Return whether the proxy holds every byte.
	 * @return whether frozen
	 */
	public boolean isFrozen() {
		return this.frozen;
	}

	/**
	 * Return how many times a connection or a chunk of bytes waited for a thaw: a test
	 * that freezes checks that the freeze held something.
	 * @return the count
	 */
	public int getHeld() {
		return this.held.get();
	}

	private void awaitThaw() throws IOException {
		if (!this.frozen) {
			return;
		}
		synchronized (this.thawed) {
			if (this.frozen && !this.closed) {
				this.held.incrementAndGet();
			}
			while (this.frozen && !this.closed) {
				try {
					this.thawed.wait();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IOException("proxy closed while frozen", ex);
				}
			}
		}
	}

	/**
	 * Accept and forward connections again, on the same port.
	 */
	public synchronized void restore() throws IOException {
		this.listener = listenAgain();
		this.cut = false;
		this.threads.execute(this::acceptLoop);
	}

	private void acceptLoop() {
		ServerSocket current = this.listener;
		while (!current.isClosed()) {
			try {
				Socket client = current.accept();
				this.accepted.incrementAndGet();
				this.sockets.add(client);
				// while frozen the connection is accepted and waits
				this.threads.execute(() -> connect(client));
			}
			catch (IOException ex) {
				// listener closed
			}
		}
	}

	private void connect(Socket client) {
		Socket server = new Socket();
		try {
			awaitThaw();
			server.connect(this.upstream, 5000);
		}
		catch (IOException ex) {
			// the server is down: the client sees its connection reset, not silence
			reset(client);
			reset(server);
			this.sockets.remove(client);
			return;
		}
		this.sockets.add(server);
		this.threads.execute(() -> pipe(client, server));
		this.threads.execute(() -> pipe(server, client));
	}

	private void pipe(Socket from, Socket to) {
		byte[] buffer = new byte[16384];
		try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
			int read;
			while ((read = in.read(buffer)) >= 0) {
				// held while frozen; the peer's further
				// bytes wait in the kernel's buffers
				awaitThaw();
				out.write(buffer, 0, read);
				out.flush();
			}
		}
		catch (IOException ex) {
			// connection reset or closed
		}
		finally {
			reset(from);
			reset(to);
			this.sockets.remove(from);
			this.sockets.remove(to);
		}
	}

	private static void reset(Socket socket) {
		try {
			socket.setSoLinger(true, 0);
			socket.close();
		}
		catch (IOException ex) {
			// already closed
		}
	}

	@Override
	public void close() throws IOException {
		this.closed = true;
		thaw();
		cut();
		this.threads.shutdownNow();
	}

}
