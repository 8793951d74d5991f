package dev.informer.benchmarks;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * How the cold-start benchmark launches a JVM subject: its main class, its JDK, and the
 * archive of a training run it starts from, if any. What the JVM offers an application
 * without code changes: JDK 17's dynamic CDS archive ({@code -XX:ArchiveClassesAtExit},
 * the class data a Spring Boot CDS training run produces), or JDK 25's AOT cache
 * ({@code -XX:AOTCacheOutput}: classes loaded and linked ahead of time, and the method
 * profiles of the training run).
 *
 * @param id the subject's id in the report
 * @param main the main class ({@link ColdStartProcesses})
 * @param javaHome the JDK
 * @param archive the archive the measured launches start from
 * @param refreshOnly whether the training run only refreshes the application context
 * ({@code -Dspring.context.exit=onRefresh}, Spring Boot's documented training run and
 * what an image build does, without a cluster) instead of syncing its informer
 * @param options JVM options of every launch, such as system properties that configure
 * the application
 */
record ColdStartJvm(String id, Class<?> main, Path javaHome, Archive archive, boolean refreshOnly,
		List<String> options) {

	ColdStartJvm(String id, Class<?> main, Path javaHome, Archive archive, boolean refreshOnly) {
		this(id, main, javaHome, archive, refreshOnly, List.of());
	}

	ColdStartJvm(String id, Class<?> main, Path javaHome, Archive archive) {
		this(id, main, javaHome, archive, false);
	}

	private static final Pattern JAVA_VERSION = Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);

	/**
	 * The archive of a training run.
	 */
	enum Archive {

		/**
		 * No archive of the application's classes (the JDK's default CDS archive only).
		 */
		NONE,

		/** JDK 17's dynamic CDS archive, written at the end of the training run. */
		CDS,

		/** JDK 25's AOT cache, assembled from the training run at its end. */
		AOT_CACHE

	}

	/**
	 * The options of the training run, which writes the archive.
	 * @param file the archive to write
	 * @return the JVM options
	 */
	List<String> trainingOptions(Path file) {
		List<String> options = new ArrayList<>(switch (this.archive) {
			case NONE -> List.<String>of();
			case CDS -> List.of("-XX:ArchiveClassesAtExit=" + file);
			case AOT_CACHE -> List.of("-XX:AOTCacheOutput=" + file);
		});
		if (this.refreshOnly) {
			options.add("-Dspring.context.exit=onRefresh");
		}
		return options;
	}

	/**
	 * The options of a measured launch. A launch that cannot use its archive fails rather
	 * than silently measuring a JVM without it.
	 * @param file the archive the training run wrote
	 * @return the JVM options
	 */
	List<String> launchOptions(Path file) {
		return switch (this.archive) {
			case NONE -> List.of();
			case CDS -> List.of("-XX:SharedArchiveFile=" + file, "-Xshare:on");
			case AOT_CACHE -> List.of("-XX:AOTCache=" + file, "-XX:AOTMode=on");
		};
	}

	/**
	 * The command of one launch.
	 * @param options JVM options
	 * @param classPath the class path
	 * @param arguments the main class's arguments
	 * @return the command
	 */
	List<String> command(List<String> options, String classPath, List<String> arguments) {
		List<String> command = new ArrayList<>();
		command.add(this.javaHome.resolve("bin").resolve("java").toString());
		command.addAll(this.options);
		command.addAll(options);
		command.add("-cp");
		command.add(classPath);
		command.add(this.main.getName());
		command.addAll(arguments);
		return command;
	}

	/**
	 * The feature version of a JDK, from its {@code release} file.
	 * @param javaHome the JDK
	 * @return the version, or {@code null} when {@code javaHome} is not a JDK
	 */
	static @Nullable Integer featureVersion(Path javaHome) {
		Path release = javaHome.resolve("release");
		if (!Files.isRegularFile(release) || !Files.isExecutable(javaHome.resolve("bin").resolve("java"))) {
			return null;
		}
		try {
			Matcher matcher = JAVA_VERSION.matcher(Files.readString(release, StandardCharsets.UTF_8));
			return matcher.find() ? Integer.valueOf(matcher.group(1)) : null;
		}
		catch (IOException ex) {
			return null;
		}
	}

	/**
	 * A class path of jar files only: CDS and the AOT cache archive classes from jars,
	 * not from directories, so each directory entry (the benchmark's own classes, when
	 * run from Maven) is packed into a jar under {@code directory}. Every JVM subject
	 * gets the same class path, archive or not.
	 * @param classPath the class path
	 * @param directory where to write the jars
	 * @return the class path of jars
	 * @throws IOException on failure to write a jar
	 */
	static String jarsOnly(String classPath, Path directory) throws IOException {
		Files.createDirectories(directory);
		List<String> entries = new ArrayList<>();
		int index = 0;
		for (String entry : classPath.split(java.io.File.pathSeparator)) {
			Path path = Path.of(entry);
			if (Files.isDirectory(path)) {
				Path jar = directory.resolve((index++) + "-" + path.getFileName() + ".jar");
				pack(path, jar);
				entries.add(jar.toAbsolutePath().toString());
			}
			else if (!entry.isEmpty()) {
				entries.add(entry);
			}
		}
		return String.join(java.io.File.pathSeparator, entries);
	}

	private static void pack(Path directory, Path jar) throws IOException {
		try (OutputStream out = Files.newOutputStream(jar);
				JarOutputStream jarOut = new JarOutputStream(out);
				Stream<Path> files = Files.walk(directory)) {
			for (Path file : files.filter((file) -> !file.equals(directory)).sorted().toList()) {
				String name = directory.relativize(file).toString().replace('\\', '/');
				boolean isDirectory = Files.isDirectory(file);
				jarOut.putNextEntry(new JarEntry(isDirectory ? name + "/" : name));
				if (!isDirectory) {
					Files.copy(file, jarOut);
				}
				jarOut.closeEntry();
			}
		}
	}

}
