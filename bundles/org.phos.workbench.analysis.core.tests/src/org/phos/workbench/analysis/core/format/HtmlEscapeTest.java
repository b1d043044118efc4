package org.phos.workbench.analysis.core.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/** The report's escaping: what goes in comes back out of an XML parser, whatever a trace names. */
class HtmlEscapeTest {

	@Test
	void markupCharactersBecomeReferences() {
		assertEquals("a&lt;b&gt; &amp; &quot;c&quot; &#39;d&#39;", HtmlEscape.escape("a<b> & \"c\" 'd'"));
		String plain = "saxpy(int, float*)";
		assertSame(plain, HtmlEscape.escape(plain), "nothing to escape: the same string");
	}

	@Test
	void charactersXmlForbidsBecomeReplacementCharacters() {
		assertEquals("a\uFFFDb\uFFFDc\uFFFD", HtmlEscape.escape("a\u0000b\u001bc\uD800"));
		assertEquals("\uD83D\uDE80 ok", HtmlEscape.escape("\uD83D\uDE80 ok"), "a surrogate pair is kept");
	}

	@Test
	void textAndAttributesRoundTripThroughAnXmlParser() throws Exception {
		String hostile = "tricky<\"quoted\", a,b>\\(char\n)\t& 'x' \r\u0007";
		String xml = "<p title=\"" + HtmlEscape.attribute(hostile) + "\">" + HtmlEscape.escape(hostile) + "</p>";
		Element p = DocumentBuilderFactory.newInstance().newDocumentBuilder()
				.parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))).getDocumentElement();
		String expected = hostile.replace('\u0007', '\uFFFD');
		assertEquals(expected, p.getAttribute("title"));
		assertEquals(expected.replace("\r", "\n"), p.getTextContent(), "XML reads a raw CR in text as LF");
	}
}
