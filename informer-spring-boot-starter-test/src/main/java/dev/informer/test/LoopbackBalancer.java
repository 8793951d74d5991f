package dev.informer.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

/**
 * A TCP load balancer on loopback in front of the {@link ControlPlane}'s API servers, as
 * in front of a highly available control plane: each new connection goes to the next
 * server in rotation, or to the one after when that one refuses it; a client sees its
 * connection reset only when all refuse. A server is in rotation once it is ready and
 * until it starts to shut down, as a load balancer's {@code /readyz} health check has it
 * ({@link #setInRotation}). A connection to a server that goes away is reset, so the
 * client reconnects, through the balancer, to one that is up. TLS passes through: the
 * servers' certificate names 127.0.0.1.
 */
final class LoopbackBalancer implements AutoCloseable {

	private final ServerSocket listener;

	private final List<InetSocketAddress> upstreams;

	private final AtomicInteger next = new AtomicInteger();

	private final Set<Integer> inRotation = ConcurrentHashMap.newKeySet();

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private final ExecutorService threads = Executors.newCachedThreadPool((task) -> {
		Thread thread = new Thread(task, "control-plane-balancer");
		thread.setDaemon(true);
		return thread;
	});

	LoopbackBalancer(List<InetSocketAddress> upstreams) throws IOException {
		this.upstreams = List.copyOf(upstreams);
		this.listener = new ServerSocket();
		this.listener.setReuseAddress(true);
		this.listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 100);
		this.threads.execute(this::acceptLoop);
	}

	/**
	 * Put a server in rotation (it is ready) or take it out (it shuts down or is gone).
	 * @param index the server's index in the upstreams
	 * @param ready whether it takes new connections
	 */
	void setInRotation(int index, boolean ready) {
		if (ready) {
			this.inRotation.add(index);
		}
		else {
			this.inRotation.remove(index);
		}
	}

	int getPort() {
		return this.listener.getLocalPort();
	}

	private void acceptLoop() {
		while (!this.listener.isClosed()) {
			try {
				Socket client = this.listener.accept();
				Socket server = connect();
				if (server == null) {
					reset(client);
					continue;
				}
				this.sockets.add(client);
				this.sockets.add(server);
				this.threads.execute(() -> pipe(client, server));
				this.threads.execute(() -> pipe(server, client));
			}
			catch (IOException ex) {
				// the listener closed
			}
		}
	}

	private @Nullable Socket connect() {
		int first = this.next.getAndIncrement();
		for (int i = 0; i < this.upstreams.size(); i++) {
			int index = Math.floorMod(first + i, this.upstreams.size());
			if (!this.inRotation.contains(index)) {
				continue;
			}
			Socket server = new Socket();
			try {
				server.connect(this.upstreams.get(index), 5000);
				return server;
			}
			catch (IOException ex) {
				reset(server);
			}
		}
		return null;
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
			// reset or closed
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
	public void close() {
		try {
			this.listener.close();
		}
		catch (IOException ex) {
			// closing
		}
		this.sockets.forEach(LoopbackBalancer::reset);
		this.threads.shutdownNow();
	}

}
