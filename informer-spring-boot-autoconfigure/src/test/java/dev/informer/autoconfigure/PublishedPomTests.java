package dev.informer.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a published POM must carry, and the BOM users import: the licence file is
 * Apache-2.0 and every published POM names it, with SCM, developers and URL (the modules
 * inherit them from the parent, the BOM has no parent); the BOM manages every published
 * module and pins fabric8 and kube-api-test at the versions the starters are built
 * against; the user-shaped test-usage project imports the BOM and names the starters
 * without versions.
 */
class PublishedPomTests {

	private static final Path ROOT = Path.of("..");

	private static final List<String> PUBLISHED_MODULES = List.of("informer-spring-boot-autoconfigure",
			"informer-spring-boot-starter", "informer-spring-boot-starter-test");

	@Test
	void theLicenceIsApache2() throws Exception {
		String licence = Files.readString(ROOT.resolve("LICENSE"));
		assertThat(licence).contains("Apache License", "Version 2.0, January 2004",
				"TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION", "END OF TERMS AND CONDITIONS");
	}

	@Test
	void theParentAndTheBomCarryTheMetadataMavenCentralRequires() throws Exception {
		for (String pom : List.of("pom.xml", "informer-spring-boot-dependencies/pom.xml")) {
			Element project = pom(pom);
			assertThat(text(project, "url")).as(pom).startsWith("https://github.com/");
			assertThat(text(project, "licenses/license/name")).as(pom).isEqualTo("Apache License, Version 2.0");
			assertThat(text(project, "licenses/license/url")).as(pom)
				.isEqualTo("https://www.apache.org/licenses/LICENSE-2.0");
			assertThat(text(project, "developers/developer/name")).as(pom).isNotBlank();
			assertThat(text(project, "scm/url")).as(pom).isEqualTo(text(project, "url"));
			assertThat(text(project, "scm/connection")).as(pom).startsWith("scm:git:");
			assertThat(text(project, "description")).as(pom).isNotBlank();
		}
		// the modules inherit it all, without their artifactId appended to the URLs
		assertThat(pom("pom.xml").getAttribute("child.project.url.inherit.append.path")).isEqualTo("false");
		for (String module : PUBLISHED_MODULES) {
			Element project = pom(module + "/pom.xml");
			assertThat(text(project, "parent/artifactId")).as(module).isEqualTo("informer-parent");
			assertThat(text(project, "description")).as(module).isNotBlank();
			assertThat(children(project, "url")).as(module).isEmpty();
			assertThat(children(project, "scm")).as(module).isEmpty();
		}
	}

	@Test
	void theBomManagesEveryPublishedModuleAndTheVersionsTheyAreBuiltAgainst() throws Exception {
		Element bom = pom("informer-spring-boot-dependencies/pom.xml");
		Element parent = pom("pom.xml");
		assertThat(children(bom, "parent")).as("a parent's dependency management would be imported too").isEmpty();
		assertThat(text(bom, "version")).isEqualTo(text(parent, "version"));
		List<String> managed = new ArrayList<>();
		for (Element dependency : children(bom, "dependencyManagement/dependencies/dependency")) {
			managed.add(text(dependency, "artifactId") + ":" + text(dependency, "version"));
		}
		for (String module : PUBLISHED_MODULES) {
			assertThat(managed).contains(module + ":${project.version}");
		}
		assertThat(managed).contains("kubernetes-client-bom:${fabric8.version}",
				"kube-api-test:${kube-api-test.version}");
		for (String property : List.of("fabric8.version", "kube-api-test.version")) {
			assertThat(text(bom, "properties/" + property)).as(property)
				.isEqualTo(text(parent, "properties/" + property));
		}
		assertThat(texts(parent, "modules/module")).contains("informer-spring-boot-dependencies");
	}

	@Test
	void theTestUsageProjectImportsTheBomAndNamesTheStartersWithoutVersions() throws Exception {
		Element usage = pom("informer-spring-boot-starter-test-usage/pom.xml");
		assertThat(text(usage, "parent/artifactId")).isEqualTo("spring-boot-starter-parent");
		Element imported = children(usage, "dependencyManagement/dependencies/dependency").get(0);
		assertThat(text(imported, "artifactId")).isEqualTo("informer-spring-boot-dependencies");
		assertThat(text(imported, "scope")).isEqualTo("import");
		List<Element> informerDependencies = children(usage, "dependencies/dependency").stream()
			.filter((dependency) -> "dev.informer".equals(text(dependency, "groupId")))
			.toList();
		assertThat(informerDependencies).extracting((dependency) -> text(dependency, "artifactId"))
			.containsExactly("informer-spring-boot-starter", "informer-spring-boot-starter-test");
		assertThat(informerDependencies)
			.allSatisfy((dependency) -> assertThat(children(dependency, "version")).isEmpty());
	}

	/**
	 * The Spring Boot lines the BOM and the README call supported are the ones the build
	 * tests: the build's own (pom.xml, and the parent of the user's project in the build)
	 * and the one .ci/run runs the unit tests and a user's project on
	 * (scripts/test-spring-boot-4.0).
	 */
	@Test
	void theSupportedSpringBootLinesAreTheOnesTheBuildTests() throws Exception {
		String built = text(pom("pom.xml"), "properties/spring-boot.version");
		assertThat(text(pom("informer-spring-boot-starter-test-usage/pom.xml"), "parent/version")).isEqualTo(built);
		assertThat(Files.readString(ROOT.resolve(".ci/run"))).containsPattern("(?m)^scripts/test-spring-boot-4.0$");
		Matcher ci = Pattern.compile("(?m)^boot40=\"\\$\\{1:-(\\S+)\\}\"$")
			.matcher(Files.readString(ROOT.resolve("scripts/test-spring-boot-4.0")));
		assertThat(ci.find()).as("the other line's version in scripts/test-spring-boot-4.0").isTrue();
		String supported = "Spring Boot " + line(ci.group(1)) + ".x and " + line(built) + ".x";
		assertThat(text(pom("informer-spring-boot-dependencies/pom.xml"), "description")).contains(supported);
		assertThat(Files.readString(ROOT.resolve("README.md"))).contains(supported);
	}

	private static String line(String version) {
		return version.substring(0, version.lastIndexOf('.'));
	}

	private static Element pom(String path) throws Exception {
		Document document = DocumentBuilderFactory.newInstance()
			.newDocumentBuilder()
			.parse(ROOT.resolve(path).toFile());
		return document.getDocumentElement();
	}

	private static String text(Element element, String path) {
		List<Element> found = children(element, path);
		assertThat(found).as(path).isNotEmpty();
		return found.get(0).getTextContent().trim();
	}

	private static List<String> texts(Element element, String path) {
		return children(element, path).stream().map((child) -> child.getTextContent().trim()).toList();
	}

	/** The elements at a slash-separated path of direct children. */
	private static List<Element> children(Element element, String path) {
		List<Element> current = List.of(element);
		for (String name : path.split("/")) {
			List<Element> next = new ArrayList<>();
			for (Element parent : current) {
				NodeList nodes = parent.getChildNodes();
				for (int i = 0; i < nodes.getLength(); i++) {
					Node node = nodes.item(i);
					if (node instanceof Element child && child.getTagName().equals(name)) {
						next.add(child);
					}
				}
			}
			current = next;
		}
		return current;
	}

}
