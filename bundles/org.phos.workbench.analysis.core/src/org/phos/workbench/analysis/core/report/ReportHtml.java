package org.phos.workbench.analysis.core.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.KernelRow;
import org.phos.workbench.analysis.core.Overview;
import org.phos.workbench.analysis.core.format.KernelNames;
import org.phos.workbench.cr.core.ConsistencyReport;
import org.phos.workbench.cr.core.ConsistencyViolation;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.speculation.core.validate.Accuracy;
import org.phos.workbench.speculation.core.validate.EngineValidation;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.EventKind;

/**
 * The pages of a report as XHTML-compatible HTML: one per trace and the index. Figures are worded for a reader and
 * carry their exact value in {@code data-v} (ns, bytes, counts, shares as fractions), so a script (and the tests)
 * can read them back; rows name what they are in {@code data-engine}, {@code data-run}, {@code data-kind}.
 */
final class ReportHtml {

	static final String CSS = """
			body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1d2430;
			margin:0;background:#f6f7f9}
			main{max-width:1180px;margin:0 auto;padding:16px 28px 48px;background:#fff;min-height:100vh}
			h1{font-size:24px;margin:8px 0 4px}h2{font-size:19px;margin:28px 0 8px;padding-bottom:4px;
			border-bottom:2px solid #d8dde6}h3{font-size:15px;margin:18px 0 6px}
			a{color:#1a5fb4}nav{font-size:13px;margin:4px 0 10px}nav a{margin-right:14px}
			p.lead{color:#4a5568;margin:2px 0 12px}.note{color:#6b7280;font-style:italic}
			table{border-collapse:collapse;margin:6px 0 10px;font-size:13px}
			th,td{padding:3px 10px;border-bottom:1px solid #e5e8ee;text-align:left;vertical-align:top}
			th{background:#eef1f5;font-weight:600;white-space:nowrap}tr:nth-child(even) td{background:#fafbfc}
			td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
			td.wide{min-width:220px}td.fig{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums;font-size:12px}
			td.k{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12px;max-width:460px;
			overflow-wrap:anywhere}
			.grid{display:flex;flex-wrap:wrap;gap:8px 36px;align-items:flex-start}
			.bad{color:#b42318;font-weight:600}.good{color:#1e7a34;font-weight:600}.muted{color:#8a94a6}
			figure{margin:14px 0 22px}figcaption{color:#4a5568;font-size:13px;margin-top:4px}
			figure svg{max-width:100%;height:auto;border:1px solid #e5e8ee}
			ul.unsafe{margin:4px 0 10px;padding-left:20px;font-size:13px}
			#traces td{white-space:nowrap}th.group{text-align:center;border-bottom:1px solid #c9d0db}
			.err{background:#fdecea;color:#8a1c12;padding:2px 6px;border-radius:3px}
			""";

	private ReportHtml() {
	}

	/** The page of one trace; {@code files} are the relative names of the CSV files beside it. */
	static String page(TraceReport r, Map<String, String> files) {
		HtmlWriter h = head(r.name() + " - Phoenix Workbench report");
		h.open("nav").element("a", "\u2190 All traces", "href", "index.html")
				.element("a", "Overview", "href", "#overview").element("a", "Accuracy", "href", "#accuracy")
				.element("a", "Disagreement", "href", "#kernels").element("a", "C/R comparison", "href", "#cr")
				.close();
		h.element("h1", r.name());
		h.element("p", ReportFigures.summary(r), "class", "lead");
		overview(h, r.overview(), r.memory());
		accuracy(h, r, files.get("accuracy"));
		disagreement(h, r);
		cr(h, r, files.get("metrics"), files.get("violations"));
		return tail(h);
	}

	/**
	 * One line of the index: the trace, its page (or its error) and its figures at a glance.
	 *
	 * @param glance null for a failed trace
	 */
	record IndexEntry(String name, @Nullable String page, @Nullable String error, @Nullable Glance glance) {
	}

	/**
	 * A trace at a glance, for the index (kept instead of the whole report, whose charts are large).
	 *
	 * @param unsafe unsafe launches per engine as the options name them (all tools), empty without ground truth
	 * @param inconsistent C/R runs found inconsistent, -1 without a C/R comparison
	 */
	record Glance(String device, long launches, int kernels, long observedLaunches, Map<String, Long> unsafe,
			int runs, long inconsistent) {

		static Glance of(TraceReport r) {
			Map<String, Long> unsafe = new java.util.LinkedHashMap<>();
			if (!r.accuracy().isEmpty()) {
				List<EngineValidation> engines = r.accuracy().get(0).report().engines();
				List<String> names = r.disagreement().engines();
				for (int i = 0; i < engines.size(); i++) {
					unsafe.put(i < names.size() ? names.get(i) : engines.get(i).engine(),
							engines.get(i).total().unsafeLaunches());
				}
			}
			TraceReport.CrComparison c = r.cr();
			String device = r.overview().header().getOrDefault("device", "-");
			int comma = device.indexOf(", compute capability");
			return new Glance(comma > 0 ? device.substring(0, comma) : device, r.launches(),
					r.overview().kernelCount(), r.overview().truth().launches(), unsafe,
					c == null ? 0 : c.runs().size(), c == null ? -1 : c.runs().stream()
							.filter(run -> run.metrics().consistency().checked()
									&& !run.metrics().consistency().consistent())
							.count());
		}
	}

	static String index(String title, List<IndexEntry> entries) {
		HtmlWriter h = head(title);
		h.element("h1", title);
		long failed = entries.stream().filter(e -> e.error() != null).count();
		h.element("p", entries.size() + " trace" + (entries.size() == 1 ? "" : "s")
				+ (failed > 0 ? ", " + failed + " could not be reported" : "")
				+ ". Each page: overview, accuracy of the speculation engines against the observed accesses, the "
				+ "kernels where they disagree, and a C/R comparison of the main policies with observed and "
				+ "speculated sets.", "class", "lead");
		List<String> engines = entries.stream().filter(e -> e.glance() != null)
				.flatMap(e -> e.glance().unsafe().keySet().stream()).distinct().toList();
		String two = "2";
		h.open("table", "id", "traces").open("thead").open("tr").element("th", "Trace", "rowspan", two)
				.element("th", "Device", "rowspan", two).element("th", "Launches", "class", "n", "rowspan", two)
				.element("th", "Kernels", "class", "n", "rowspan", two)
				.element("th", "Observed", "class", "n", "rowspan", two);
		if (!engines.isEmpty()) {
			h.element("th", "Unsafe launches", "colspan", Integer.toString(engines.size()), "class", "group");
		}
		h.element("th", "C/R runs inconsistent", "class", "n", "rowspan", two).close().open("tr");
		for (String e : engines) {
			h.element("th", e, "class", "n");
		}
		h.close().close().open("tbody");
		for (IndexEntry e : entries) {
			h.open("tr", "data-trace", e.name());
			Glance g = e.glance();
			if (e.page() != null && g != null) {
				h.open("td").element("a", e.name(), "href", e.page()).close();
				h.element("td", g.device());
				number(h, ReportFigures.count(g.launches()), g.launches());
				number(h, ReportFigures.count(g.kernels()), g.kernels());
				number(h, ReportFigures.count(g.observedLaunches()), g.observedLaunches());
				for (String engine : engines) {
					Long unsafe = g.unsafe().get(engine);
					if (unsafe == null) {
						h.element("td", "-", "class", "n muted");
					} else {
						h.open("td", "class", "n", "data-v", Long.toString(unsafe))
								.element("span", ReportFigures.count(unsafe), "class", unsafe > 0 ? "bad" : "good")
								.close();
					}
				}
				if (g.inconsistent() < 0) {
					h.element("td", "-", "class", "n muted");
				} else {
					h.open("td", "class", "n", "data-v", Long.toString(g.inconsistent()))
							.element("span", g.inconsistent() + " of " + g.runs(), "class",
									g.inconsistent() > 0 ? "bad" : "good")
							.close();
				}
			} else {
				h.element("td", e.name());
				h.open("td", "colspan", Integer.toString(5 + engines.size()))
						.element("span", "failed: " + e.error(), "class", "err").close();
			}
			h.close();
		}
		h.close().close();
		h.element("p", "Unsafe: launches where the engine missed a write or got its direction wrong (a concurrent "
				+ "checkpoint could be inconsistent). C/R runs: each main policy with the observed and the speculated "
				+ "sets; inconsistent: its image would miss a write.", "class", "note");
		return tail(h);
	}

	private static HtmlWriter head(String title) {
		HtmlWriter h = new HtmlWriter();
		h.open("html", "xmlns", "http://www.w3.org/1999/xhtml", "lang", "en").open("head");
		h.empty("meta", "charset", "utf-8").empty("meta", "name", "viewport", "content", "width=device-width");
		h.element("title", title).style(CSS).close().open("body").open("main");
		return h;
	}

	private static String tail(HtmlWriter h) {
		h.element("p", "Written by Phoenix Workbench (workbench report).", "class", "muted");
		return h.close().close().close().document();
	}

	// ------------------------------------------------------------------ overview

	private static void overview(HtmlWriter h, Overview o, TraceReport.@Nullable Chart memory) {
		h.open("section", "id", "overview").element("h2", "Overview");
		h.open("table", "id", "header").open("tbody");
		for (Map.Entry<String, String> e : o.header().entrySet()) {
			h.open("tr").element("th", e.getKey()).element("td", e.getValue()).close();
		}
		h.close().close();
		h.open("div", "class", "grid");
		h.open("div").element("h3", "Events");
		h.open("table", "id", "counts").open("thead").open("tr").element("th", "Kind").element("th", "Events", "class",
				"n").close().close().open("tbody");
		for (Map.Entry<EventKind, Integer> e : o.counts().entrySet()) {
			h.open("tr", "data-kind", e.getKey().name().toLowerCase(Locale.ROOT)).element("td",
					e.getKey().name().toLowerCase(Locale.ROOT));
			number(h, ReportFigures.count(e.getValue()), e.getValue());
			h.close();
		}
		h.open("tr", "data-kind", "all").open("td").element("b", "all").close();
		number(h, ReportFigures.count(o.eventCount()), o.eventCount());
		h.close().close().close().close();

		Overview.Memory m = o.memory();
		h.open("div").element("h3", "Device memory");
		h.element("p", "peak " + ReportFigures.bytes(m.peakLiveBytes()) + " live (event " + m.peakEvent() + "), "
				+ ReportFigures.bytes(m.liveAtEndBytes()) + " still allocated at the end");
		h.open("table", "id", "memory").open("thead").open("tr").element("th", "Kind")
				.element("th", "Allocations", "class", "n").element("th", "Allocated", "class", "n")
				.element("th", "Peak live", "class", "n").close().close().open("tbody");
		for (Map.Entry<AllocKind, Overview.KindMemory> e : m.byKind().entrySet()) {
			Overview.KindMemory k = e.getValue();
			h.open("tr", "data-kind", e.getKey().name().toLowerCase(Locale.ROOT))
					.element("td", e.getKey().name().toLowerCase(Locale.ROOT));
			number(h, ReportFigures.count(k.allocations()), k.allocations());
			number(h, ReportFigures.bytes(k.allocatedBytes()), k.allocatedBytes());
			number(h, ReportFigures.bytes(k.peakLiveBytes()), k.peakLiveBytes());
			h.close();
		}
		h.close().close().close();

		h.open("div").element("h3", "Streams");
		h.open("table", "id", "streams").open("thead").open("tr").element("th", "Stream")
				.element("th", "Launches", "class", "n").element("th", "GPU time", "class", "n").close().close()
				.open("tbody");
		for (Overview.StreamLaunches s : o.streams()) {
			h.open("tr").element("td", s.stream() == 0 ? "default" : "0x" + Long.toHexString(s.stream()), "class", "k");
			number(h, ReportFigures.count(s.launches()), s.launches());
			number(h, ReportFigures.duration(s.gpuNs()), s.gpuNs());
			h.close();
		}
		h.close().close().close();

		Overview.Truth t = o.truth();
		h.open("div").element("h3", "Ground truth");
		if (t.records() == 0) {
			h.element("p", "no observed accesses", "class", "note");
		} else {
			h.open("table", "id", "truth").open("tbody");
			h.open("tr").element("th", "records");
			number(h, ReportFigures.count(t.records()), t.records());
			h.close().open("tr").element("th", "launches observed");
			number(h, ReportFigures.count(t.launches()), t.launches());
			h.close().open("tr").element("th", "reliable");
			number(h, ReportFigures.count(t.reliableLaunches()), t.reliableLaunches());
			h.close();
			for (Map.Entry<String, Long> e : t.recordsByTool().entrySet()) {
				h.open("tr").element("th", "by " + e.getKey());
				number(h, ReportFigures.count(e.getValue()), e.getValue());
				h.close();
			}
			h.close().close();
			h.element("p", t.summary(), "class", "note");
		}
		h.close().close();

		if (memory != null) {
			h.open("figure").svg(memory.svg()).element("figcaption", memory.caption()).close();
		}
		h.element("h3", "Kernels by GPU time (" + o.kernelCount() + " kernels)");
		h.open("table", "id", "kernels-by-time").open("thead").open("tr").element("th", "Kernel")
				.element("th", "Launches", "class", "n").element("th", "GPU time", "class", "n").close().close()
				.open("tbody");
		List<Overview.KernelTime> kernels = new java.util.ArrayList<>(o.kernels());
		if (o.otherKernels() != null) {
			kernels.add(o.otherKernels());
		}
		for (Overview.KernelTime k : kernels) {
			h.open("tr").element("td", k.functionId() < 0 ? "(the others)" : KernelNames.shorten(k.name(), 110),
					"class", "k", "title", k.name());
			number(h, ReportFigures.count(k.launches()), k.launches());
			number(h, ReportFigures.duration(k.gpuNs()), k.gpuNs());
			h.close();
		}
		h.close().close().close();
	}

	// ------------------------------------------------------------------ accuracy

	private static void accuracy(HtmlWriter h, TraceReport r, @Nullable String csv) {
		h.open("section", "id", "accuracy").element("h2", "Accuracy of the speculation engines");
		if (r.accuracy().isEmpty()) {
			h.element("p", String.valueOf(r.accuracyNote()), "class", "note").close();
			return;
		}
		h.open("p").text("Speculated read/write sets against the observed accesses, as ")
				.element("code", "workbench validate").text(" reports them. A launch is unsafe when an engine misses "
						+ "a write or gets its direction wrong: a concurrent checkpoint could then be inconsistent. ");
		if (csv != null) {
			h.text("All figures per kernel: ").element("a", csv, "href", csv).text(" (validate --csv).");
		}
		h.close();
		// i15-val: which launches could have had PTX analysis and PTX-replay truth
		h.element("p", "PTX: " + r.accuracy().get(0).ptx(), "class", "note", "data-role", "ptx");
		for (TraceReport.Accuracy a : r.accuracy()) {
			String tool = a.tool() == null ? "all tools" : a.tool();
			h.element("h3", a.tool() == null ? "Against all observed accesses (" + String.join(", ",
					a.report().tools()) + ")" : "Against " + tool + " only");
			h.element("p", ReportFigures.count(a.report().observedLaunches()) + " of " + ReportFigures.count(
					r.launches()) + " launches observed; truth: " + a.report().reliability().summary(), "class",
					"note");
			h.open("table", "class", "accuracy", "data-tool", tool).open("thead").open("tr").element("th", "Engine")
					.element("th", "Launches", "class", "n").element("th", "Unsafe", "class", "n")
					.element("th", "Write recall", "class", "n").element("th", "Read recall", "class", "n")
					.element("th", "Precision", "class", "n")
					// i15-val: begin
					.element("th", "Read precision", "class", "n").element("th", "Write precision", "class", "n")
					.element("th", "Direction", "class", "n")
					// i15-val: end
					.element("th", "Not covered", "class", "n")
					.element("th", "Excluded", "class", "n").close().close().open("tbody");
			List<String> asked = r.disagreement().engines();
			for (int i = 0; i < a.report().engines().size(); i++) {
				EngineValidation e = a.report().engines().get(i);
				Accuracy t = e.total();
				String label = i < asked.size() && !asked.get(i).equals(e.engine())
						? asked.get(i) + " = " + e.engine() : e.engine();
				h.open("tr", "data-engine", e.engine()).element("td", label, "class", "k");
				number(h, ReportFigures.count(t.launches()), t.launches(), "launches");
				h.open("td", "class", "n", "data-col", "unsafe_launches", "data-v", Long.toString(t.unsafeLaunches()))
						.element("span", ReportFigures.count(t.unsafeLaunches()), "class",
								t.unsafeLaunches() > 0 ? "bad" : "good")
						.close();
				share(h, t, t.writeRecall(), "write_recall");
				share(h, t, t.readRecall(), "read_recall");
				share(h, t, t.bytePrecision(), "byte_precision");
				share(h, t, t.directions().readPrecision(), "read_precision"); // i15-val
				share(h, t, t.directions().writePrecision(), "write_precision"); // i15-val
				share(h, t, t.directions().directionAccuracy(), "direction_accuracy"); // i15-val
				number(h, ReportFigures.count(e.launchesNotCovered()), e.launchesNotCovered(), "not_covered");
				number(h, ReportFigures.count(t.excludedLaunches()), t.excludedLaunches(), "excluded_launches");
				h.close();
			}
			h.close().close();
			for (EngineValidation e : a.report().engines()) {
				List<Integer> unsafe = a.unsafe().getOrDefault(e.engine(), List.of());
				if (unsafe.isEmpty()) {
					continue;
				}
				List<String> kernels = a.unsafeKernels().getOrDefault(e.engine(), List.of());
				h.open("p").element("b", e.engine()).text(": " + unsafe.size() + " unsafe launch"
						+ (unsafe.size() == 1 ? "" : "es") + (unsafe.size() > kernels.size()
								? " (the first " + kernels.size() + ")" : "") + ":").close();
				h.open("ul", "class", "unsafe", "data-engine", e.engine(), "data-tool", tool, "data-count",
						Integer.toString(unsafe.size()));
				for (int i = 0; i < kernels.size(); i++) {
					h.open("li", "data-launch", Integer.toString(unsafe.get(i))).text("launch " + unsafe.get(i) + ": ")
							.element("span", KernelNames.shorten(kernels.get(i), 100), "class", "k").close();
				}
				h.close();
			}
		}
		h.close();
	}

	private static void share(HtmlWriter h, Accuracy a, double share, String column) {
		boolean none = a.launches() == 0 || Double.isNaN(share);
		h.element("td", none ? "-" : ReportFigures.percent(share), "class", "n", "data-col", column, "data-v",
				none ? "" : Double.toString(share));
	}

	// ------------------------------------------------------------------ disagreement

	private static void disagreement(HtmlWriter h, TraceReport r) {
		h.open("section", "id", "kernels").element("h2", "Kernels where the engines disagree most");
		TraceReport.Disagreement d = r.disagreement();
		if (d.rows().isEmpty()) {
			h.element("p", r.accuracy().isEmpty() ? "No ground truth: nothing to compare."
					: "No kernel with observed launches.", "class", "note").close();
			return;
		}
		h.element("p", "Spread: the largest difference between two engines in byte precision, read recall, write "
				+ "recall or the share of unsafe launches. Per engine: byte precision \u00b7 read recall \u00b7 write "
				+ "recall, and its unsafe launches of those compared.", "class", "note");
		h.open("table", "id", "disagreement").open("thead").open("tr").element("th", "Kernel")
				.element("th", "Launches", "class", "n").element("th", "Spread", "class", "n");
		for (String e : d.engines()) {
			h.element("th", e);
		}
		h.close().close().open("tbody");
		for (int i = 0; i < d.rows().size(); i++) {
			KernelRow k = d.rows().get(i);
			h.open("tr", "data-function", Integer.toString(k.functionId()))
					.element("td", KernelNames.shorten(k.kernel(), 70), "class", "k wide", "title", k.kernel());
			number(h, ReportFigures.count(k.launches()), k.launches());
			h.element("td", ReportFigures.percent(d.spreads().get(i)), "class", "n", "data-v",
					Double.toString(d.spreads().get(i)));
			for (KernelRow.EngineFigures f : k.engines()) {
				if (f.compared() == 0) {
					h.element("td", "not compared", "class", "muted");
					continue;
				}
				h.open("td", "class", "fig").text(ReportFigures.percent(f.precision()) + " \u00b7 "
						+ ReportFigures.percent(f.readRecall()) + " \u00b7 " + ReportFigures.percent(f.writeRecall()));
				h.empty("br").element("span", f.unsafeLaunches() + " unsafe of " + f.compared(), "class",
						f.unsafeLaunches() > 0 ? "bad" : "muted");
				h.close();
			}
			h.close();
		}
		h.close().close().close();
	}

	// ------------------------------------------------------------------ C/R

	private static void cr(HtmlWriter h, TraceReport r, @Nullable String csv, @Nullable String violations) {
		h.open("section", "id", "cr").element("h2", "Checkpoint/restore: the main policies");
		TraceReport.CrComparison c = r.cr();
		if (c == null) {
			h.element("p", String.valueOf(r.crNote()), "class", "note").close();
			return;
		}
		List<String> sets = c.runs().stream().map(TraceReport.CrRun::sets).distinct().toList();
		String first = sets.get(0);
		h.open("p").text("Simulated on " + c.machine() + ", checkpoint (or restore point) at " + c.instant()
				+ ", each policy once with the " + (first.equals("observed") ? "observed sets"
						: first + " sets (the trace holds no observed accesses)")
				+ (sets.size() > 1 ? " and once with the speculated ones" : "") + ", as ")
				.element("code", "workbench simulate --sets " + String.join(",", sets)).text(" runs them. ");
		if (csv != null) {
			h.text("Every metric: ").element("a", csv, "href", csv).text(" (simulate's metrics.csv).");
		}
		h.close();
		h.open("table", "id", "cr-metrics").open("thead").open("tr").element("th", "Run")
				.element("th", "Stall", "class", "n").element("th", "Longest", "class", "n")
				.element("th", "Stalls", "class", "n").element("th", "Done", "class", "n")
				.element("th", "Slowdown", "class", "n").element("th", "CoW", "class", "n")
				.element("th", "CoW bytes", "class", "n").element("th", "Dirty", "class", "n")
				.element("th", "Consistency").close().close().open("tbody");
		for (TraceReport.CrRun run : c.runs()) {
			SimulationMetrics m = run.metrics();
			h.open("tr", "data-run", run.name()).element("td", run.name(), "class", "k");
			number(h, ReportFigures.duration(m.stallTotalNs()), m.stallTotalNs(), "stall_total_ns");
			number(h, ReportFigures.duration(m.stallLongestNs()), m.stallLongestNs(), "stall_longest_ns");
			number(h, ReportFigures.count(m.stallCount()), m.stallCount(), "stall_count");
			long done = ReportFigures.completionNs(m);
			number(h, ReportFigures.duration(done), done, "completion_ns");
			h.element("td", ReportFigures.percent(m.slowdown()), "class", "n", "data-col", "slowdown", "data-v",
					Double.isNaN(m.slowdown()) ? "" : Double.toString(m.slowdown()));
			number(h, ReportFigures.count(m.cowCount()), m.cowCount(), "cow_count");
			number(h, ReportFigures.bytes(m.cowBytes()), m.cowBytes(), "cow_bytes");
			long dirty = ReportFigures.dirtyBytes(m);
			number(h, dirty < 0 ? "-" : ReportFigures.bytes(dirty), dirty, "dirty_bytes");
			ConsistencyReport cons = m.consistency();
			h.element("td", ReportFigures.verdict(cons), "class", cons.checked() ? (cons.consistent() ? "good" : "bad")
					: "muted", "data-col", "consistency_violations", "data-v",
					Integer.toString(cons.violations().size()));
			h.close();
		}
		h.close().close();
		h.element("h3", "Consistency verdicts");
		if (c.runs().stream().noneMatch(run -> run.metrics().consistency().checked())) {
			h.element("p", "Not checked: no launch carries observed accesses, so no run's image can be compared "
					+ "with the truth (record the trace with instrumentation to check the speculated sets).", "class",
					"note", "id", "consistency");
		} else {
			consistency(h, c, violations);
		}
		for (TraceReport.Chart chart : c.charts()) {
			h.open("figure").svg(chart.svg()).element("figcaption", chart.caption()).close();
		}
		h.close();
	}

	private static void consistency(HtmlWriter h, TraceReport.CrComparison c, @Nullable String violations) {
		h.open("ul", "id", "consistency");
		for (TraceReport.CrRun run : c.runs()) {
			ConsistencyReport cons = run.metrics().consistency();
			h.open("li", "data-run", run.name()).element("b", run.name()).text(": ");
			if (!cons.checked()) {
				h.text("not checked (no launch carries observed accesses)");
			} else if (cons.consistent()) {
				h.element("span", "consistent", "class", "good")
						.text(" (" + cons.observedLaunches() + " launches with observed accesses)");
			} else {
				h.element("span", "INCONSISTENT", "class", "bad").text(": " + cons.violations().size()
						+ " violation(s), " + ReportFigures.bytes(cons.affectedBytes()) + " of buffers affected");
				h.open("ul");
				int shown = 0;
				for (ConsistencyViolation v : cons.violations()) {
					if (shown++ == 5) {
						h.element("li", "... " + (cons.violations().size() - 5) + " more");
						break;
					}
					h.element("li", "checkpoint " + v.checkpoint() + ", buffer " + v.buffer() + ", op " + v.opIndex()
							+ ", bytes [" + v.begin() + ", " + v.end() + "): "
							+ v.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ') + ": " + v.detail());
				}
				h.close();
			}
			h.close();
		}
		h.close();
		if (violations != null) {
			h.open("p").text("Every violation of every run: ").element("a", violations, "href", violations)
					.text(" (simulate's violations.csv).").close();
		}
	}

	private static void number(HtmlWriter h, String text, long value) {
		h.element("td", text, "class", "n", "data-v", Long.toString(value));
	}

	private static void number(HtmlWriter h, String text, long value, String column) {
		h.element("td", text, "class", "n", "data-col", column, "data-v", Long.toString(value));
	}
}
