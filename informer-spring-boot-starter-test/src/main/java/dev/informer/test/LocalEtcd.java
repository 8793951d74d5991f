package dev.informer.test;

import java.nio.file.Path;
import java.time.Duration;

import io.fabric8.kubeapitest.Utils;

import org.springframework.util.FileSystemUtils;

/**
 * The etcd of a {@link RealApiServer} or a {@link ControlPlane}: started on free ports
 * with its data under a directory of the test's, and waited for until it is healthy.
 *
 * @param process the process
 * @param port its client port
 */
record LocalEtcd(ControlPlaneProcess process, int port) {

	/**
	 * Start etcd on free ports, once more if it does not come up: another process may
	 * take a port between picking it and etcd binding it.
	 * @param commands the command lines
	 * @param dir where its data and log go
	 * @param timeout how long one start may take
	 * @return the started etcd
	 */
	static LocalEtcd start(ControlPlaneCommands commands, Path dir, Duration timeout) {
		try {
			return startOnce(commands, dir, timeout);
		}
		catch (RuntimeException ex) {
			return startOnce(commands, dir, timeout);
		}
	}

	private static LocalEtcd startOnce(ControlPlaneCommands commands, Path dir, Duration timeout) {
		int port = Utils.findFreePort();
		Path data = dir.resolve("etcd");
		FileSystemUtils.deleteRecursively(data.toFile());
		ControlPlaneProcess etcd = new ControlPlaneProcess("etcd", commands.etcd(data, port, Utils.findFreePort()),
				dir.resolve("etcd.log"));
		etcd.start();
		try {
			Readiness.awaitEtcd(etcd, port, timeout);
		}
		catch (RuntimeException ex) {
			etcd.kill();
			throw ex;
		}
		return new LocalEtcd(etcd, port);
	}

}
