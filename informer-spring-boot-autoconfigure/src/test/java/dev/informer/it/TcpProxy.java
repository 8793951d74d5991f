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
 * flows) and thaw it, or black-hole the open connections (they stop forwarding without
 * being closed, while new ones work).
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

	private final Set<Socket> blackHoled = ConcurrentHashMap.newKeySet();

	// both ends of each TLS connection whose ClientHello did not offer HTTP/2
	private final Set<Socket> http1 = ConcurrentHashMap.newKeySet();

	private volatile boolean blackHoleHttp1;

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

	/**
	 * Stop forwarding on every connection open now, without closing it, as a NAT or a
	 * load balancer that lost its state does: bytes are read and dropped both ways, no
	 * FIN, no RST, so neither end notices until it misses something; connections opened
	 * later work.
	 * @return how many connections went silent (both of their sockets count)
	 */
	public int blackHole() {
		this.blackHoled.addAll(this.sockets);
		return this.blackHoled.size();
	}

	/**
	 * Reset the connections {@link #blackHole()} silenced, as their ends would after a
	 * timeout of their own.
	 */
	public void resetBlackHoled() {
		for (Socket socket : this.blackHoled) {
			reset(socket);
		}
		this.blackHoled.clear();
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
	 * Black-hole every connection, open now or opened from now on, whose TLS ClientHello
	 * does not offer HTTP/2 in its ALPN extension (a plaintext part of the handshake, so
	 * this works on TLS), and leave the others alone. fabric8's JDK client sends its
	 * requests over HTTP/2, and each watch over a WebSocket, which the JDK opens on an
	 * HTTP/1.1 connection of its own that offers no ALPN: so every watch, the restarted
	 * ones too, goes silent (new ones never complete their handshake), while every other
	 * request, the Lease's among them, works.
	 * @return how many sockets (both ends of each connection) were black-holed now
	 */
	public int blackHoleWebSockets() {
		this.blackHoleHttp1 = true;
		this.blackHoled.addAll(this.http1);
		return this.blackHoled.size();
	}

	/**
	 * Forward the connections {@link #blackHoleWebSockets()} black-holed, and new ones,
	 * again; bytes dropped meanwhile stay lost, as a black hole loses them.
	 */
	public void restoreWebSockets() {
		this.blackHoleHttp1 = false;
		this.blackHoled.removeAll(this.http1);
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
		if (!forwardClientHello(client, server)) {
			return;
		}
		this.threads.execute(() -> pipe(client, server));
		this.threads.execute(() -> pipe(server, client));
	}

	private void pipe(Socket from, Socket to) {
		byte[] buffer = new byte[16384];
		try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
			int read;
			while ((read = in.read(buffer)) >= 0) {
				if (this.blackHoled.contains(from) || this.blackHoled.contains(to)) {
					// dropped, as by a router that lost the connection's state
					continue;
				}
				// held while frozen; the peer's further
				// bytes wait in the kernel's buffers
				awaitThaw();
				if (this.blackHoled.contains(from)) {
					continue;
				}
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
			this.http1.remove(from);
			this.http1.remove(to);
			this.blackHoled.remove(from);
			this.blackHoled.remove(to);
		}
	}

	/**
	 * Read the client's first bytes (a TLS ClientHello on a TLS connection), note whether
	 * it offers HTTP/2, and forward them unless the connection is to be black-holed.
	 * @return whether the connection is still open
	 */
	private boolean forwardClientHello(Socket client, Socket server) {
		try {
			InputStream in = client.getInputStream();
			byte[] hello = new byte[16384 + 5];
			int read = in.read(hello);
			if (read < 0) {
				throw new IOException("closed");
			}
			if (hello[0] == 0x16 && read >= 5) {
				int length = Math.min(((hello[3] & 0xff) << 8) | (hello[4] & 0xff), 16384) + 5;
				while (read < length) {
					int more = in.read(hello, read, length - read);
					if (more < 0) {
						throw new IOException("closed");
					}
					read += more;
				}
				if (!offersHttp2(hello, read)) {
					this.http1.add(client);
					this.http1.add(server);
					if (this.blackHoleHttp1) {
						this.blackHoled.add(client);
						this.blackHoled.add(server);
					}
				}
			}
			if (!this.blackHoled.contains(client)) {
				OutputStream out = server.getOutputStream();
				out.write(hello, 0, read);
				out.flush();
			}
			return true;
		}
		catch (IOException ex) {
			reset(client);
			reset(server);
			this.sockets.remove(client);
			this.sockets.remove(server);
			return false;
		}
	}

	/**
	 * Return whether a TLS record holding a ClientHello offers {@code h2} in its ALPN
	 * extension (RFC 8446 4.1.2, RFC 7301); {@code false} for anything that does not
	 * parse.
	 */
	static boolean offersHttp2(byte[] record, int length) {
		// record header (5), handshake header (4), version (2), random (32)
		int at = 5 + 4 + 2 + 32;
		if (length < at + 1 || record[5] != 0x01) {
			return false;
		}
		at += 1 + (record[at] & 0xff);
		if (length < at + 2) {
			return false;
		}
		at += 2 + (((record[at] & 0xff) << 8) | (record[at + 1] & 0xff));
		if (length < at + 1) {
			return false;
		}
		at += 1 + (record[at] & 0xff);
		if (length < at + 2) {
			return false;
		}
		int end = Math.min(length, at + 2 + (((record[at] & 0xff) << 8) | (record[at + 1] & 0xff)));
		at += 2;
		while (at + 4 <= end) {
			int type = ((record[at] & 0xff) << 8) | (record[at + 1] & 0xff);
			int size = ((record[at + 2] & 0xff) << 8) | (record[at + 3] & 0xff);
			at += 4;
			if (type == 16 && at + 2 <= end) {
				int protocols = Math.min(end, at + 2 + (((record[at] & 0xff) << 8) | (record[at + 1] & 0xff)));
				for (int p = at + 2; p < protocols;) {
					int n = record[p] & 0xff;
					if (n == 2 && p + 3 <= protocols && record[p + 1] == 'h' && record[p + 2] == '2') {
						return true;
					}
					p += 1 + n;
				}
				return false;
			}
			at += size;
		}
		return false;
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
