package dev.informer.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy on loopback that forwards each direction of each connection at most at a
 * given rate, as a network link of that bandwidth would: after forwarding a chunk it
 * waits until the link would have carried it, catching up after a pause (a token bucket
 * of one chunk). TLS passes through untouched, so clients keep the server's certificate
 * by connecting to the proxy's port on the same address.
 */
final class RateLimitedProxy implements AutoCloseable {

	private static final int CHUNK = 16 * 1024;

	private final ServerSocket server;

	private final String targetHost;

	private final int targetPort;

	private final long bytesPerSecond;

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	/**
	 * Listen on a free loopback port.
	 * @param targetHost where to connect
	 * @param targetPort its port
	 * @param bitsPerSecond the link's bandwidth in each direction
	 * @throws IOException when no port is free
	 */
	RateLimitedProxy(String targetHost, int targetPort, long bitsPerSecond) throws IOException {
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		this.targetHost = targetHost;
		this.targetPort = targetPort;
		this.bytesPerSecond = bitsPerSecond / 8;
		Thread acceptor = new Thread(this::accept, "proxy-accept-" + port());
		acceptor.setDaemon(true);
		acceptor.start();
	}

	int port() {
		return this.server.getLocalPort();
	}

	private void accept() {
		while (!this.server.isClosed()) {
			try {
				Socket client = this.server.accept();
				Socket upstream = new Socket(this.targetHost, this.targetPort);
				client.setTcpNoDelay(true);
				upstream.setTcpNoDelay(true);
				this.sockets.add(client);
				this.sockets.add(upstream);
				pump(client, upstream, "up");
				pump(upstream, client, "down");
			}
			catch (IOException ex) {
				// closed, or the target refused: the client sees its connection fail
			}
		}
	}

	private void pump(Socket from, Socket to, String direction) {
		Thread thread = new Thread(() -> {
			byte[] buffer = new byte[CHUNK];
			long due = System.nanoTime();
			try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
				for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
					out.write(buffer, 0, n);
					out.flush();
					// the link is busy with these bytes until due
					due = Math.max(due, System.nanoTime()) + n * 1_000_000_000L / this.bytesPerSecond;
					long wait = due - System.nanoTime();
					if (wait > 0) {
						LockSupport.parkNanos(wait);
					}
				}
			}
			catch (IOException ex) {
				// one side closed
			}
			finally {
				close(from);
				close(to);
			}
		}, "proxy-" + direction + "-" + port());
		thread.setDaemon(true);
		thread.start();
	}

	private static void close(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// closed already
		}
	}

	@Override
	public void close() throws IOException {
		this.server.close();
		this.sockets.forEach(RateLimitedProxy::close);
	}

}
