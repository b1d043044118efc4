package org.phos.workbench.analysis.core.report;

import java.util.ArrayDeque;
import java.util.Deque;

import org.phos.workbench.analysis.core.format.HtmlEscape;

/**
 * A small writer of XHTML-compatible HTML: every element is closed, every attribute quoted, every text and attribute
 * value escaped through {@link HtmlEscape}, so the page reads the same in a browser and in an XML parser. Elements
 * nest through {@link #open}/{@link #close}; the only unescaped content is an SVG document produced by the chart
 * builders ({@link #svg}), which is XML already.
 */
final class HtmlWriter {
	private final StringBuilder out = new StringBuilder(1 << 16);
	private final Deque<String> open = new ArrayDeque<>();

	/** Starts an element; {@code attributes} are name, value pairs (a null value leaves the attribute out). */
	HtmlWriter open(String tag, String... attributes) {
		start(tag, attributes);
		out.append('>');
		open.push(tag);
		return this;
	}

	/** Closes the innermost open element. */
	HtmlWriter close() {
		out.append("</").append(open.pop()).append('>');
		if (open.size() < 3) {
			out.append('\n');
		}
		return this;
	}

	/** An element holding only text. */
	HtmlWriter element(String tag, String text, String... attributes) {
		return open(tag, attributes).text(text).close();
	}

	/** A void element ({@code meta}, {@code br}): written {@code <tag/>}, as HTML and XML both read it. */
	HtmlWriter empty(String tag, String... attributes) {
		start(tag, attributes);
		out.append("/>");
		return this;
	}

	HtmlWriter text(String text) {
		out.append(HtmlEscape.escape(text));
		return this;
	}

	/** An SVG document inline: its XML declaration and any DOCTYPE dropped; it must be an {@code svg} element. */
	HtmlWriter svg(String document) {
		int at = document.indexOf("<svg");
		if (at < 0) {
			throw new IllegalArgumentException("not an SVG document");
		}
		out.append(document, at, document.length()).append('\n');
		return this;
	}

	/** A style sheet (a constant of the report, not data). */
	HtmlWriter style(String css) {
		out.append("<style>").append(css.replace("</", "<\\/")).append("</style>\n");
		return this;
	}

	private void start(String tag, String... attributes) {
		if ((attributes.length & 1) != 0) {
			throw new IllegalArgumentException("attributes come in name, value pairs");
		}
		out.append('<').append(tag);
		for (int i = 0; i < attributes.length; i += 2) {
			if (attributes[i + 1] != null) {
				out.append(' ').append(attributes[i]).append("=\"").append(HtmlEscape.attribute(attributes[i + 1]))
						.append('"');
			}
		}
	}

	/** The document: a DOCTYPE, then what was written; every element must be closed. */
	String document() {
		if (!open.isEmpty()) {
			throw new IllegalStateException("unclosed elements: " + open);
		}
		return "<!DOCTYPE html>\n" + out;
	}
}
