package dev.informer.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback TCP proxy between a client and the API server, so tests can cut the connection
 * (reset every open connection and refuse new ones) and restore it without restarting the
 * server.
 */
public final class TcpProxy implements AutoCloseable {

	private final ServerSocket listener;

	private final InetSocketAddress upstream;

	private final ExecutorService threads = Executors.newCachedThreadPool((task) -> {
		Thread thread = new Thread(task, "tcp-proxy");
		thread.setDaemon(true);
		return thread;
	});

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private final AtomicInteger accepted = new AtomicInteger();

	private volatile boolean cut;

	public TcpProxy(String upstreamHost, int upstreamPort) throws IOException {
		this.upstream = new InetSocketAddress(upstreamHost, upstreamPort);
		this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		this.threads.execute(this::acceptLoop);
	}

	public int getPort() {
		return this.listener.getLocalPort();
	}

	/**
	 * Return how many client connections the proxy accepted (including refused ones).
	 * @return the count
	 */
	public int getAccepted() {
		return this.accepted.get();
	}

	/**
	 * Reset every open connection and refuse new ones until {@link #restore()}.
	 */
	public void cut() {
		this.cut = true;
		for (Socket socket : this.sockets) {
			reset(socket);
		}
		this.sockets.clear();
	}

	/**
	 * Accept and forward connections again.
	 */
	public void restore() {
		this.cut = false;
	}

	private void acceptLoop() {
		while (!this.listener.isClosed()) {
			try {
				Socket client = this.listener.accept();
				this.accepted.incrementAndGet();
				if (this.cut) {
					reset(client);
					continue;
				}
				Socket server = new Socket();
				server.connect(this.upstream, 5000);
				this.sockets.add(client);
				this.sockets.add(server);
				this.threads.execute(() -> pipe(client, server));
				this.threads.execute(() -> pipe(server, client));
			}
			catch (IOException ex) {
				// listener closed, or upstream refused: the client sees a closed connection
			}
		}
	}

	private void pipe(Socket from, Socket to) {
		byte[] buffer = new byte[16384];
		try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
			int read;
			while ((read = in.read(buffer)) >= 0) {
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
		this.listener.close();
		cut();
		this.threads.shutdownNow();
	}

}
