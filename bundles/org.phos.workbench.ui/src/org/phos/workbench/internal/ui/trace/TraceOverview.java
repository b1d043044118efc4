package org.phos.workbench.internal.ui.trace;

import java.awt.Color;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.jface.resource.JFaceResources;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.ScrolledComposite;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Group;
import org.eclipse.swt.widgets.Label;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.swt.ChartComposite;
import org.phos.workbench.analysis.core.Overview;
import org.phos.workbench.analysis.core.OverviewQuery;
import org.phos.workbench.analysis.core.format.KernelNames;
import org.phos.workbench.cr.charts.ByteUnitScale;
import org.phos.workbench.cr.charts.ChartPalette;
import org.phos.workbench.cr.charts.SmallChartBuilder;
import org.phos.workbench.cr.charts.TimeUnitScale;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.buffers.BuffersTheme;
import org.phos.workbench.internal.ui.launches.Analysis;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.Trace;

/**
 * The trace editor's overview page: the header as {@code workbench info} words it, event counts, the kernels with the
 * most GPU time, live memory over time by allocation kind, launches per stream and the ground truth the trace holds,
 * with small JFreeChart charts (built UI-free by {@link SmallChartBuilder}, embedded with jfreechart-swt's
 * {@link ChartComposite}). The figures are the analysis layer's {@link Overview}, computed by {@link #compute} in the
 * editor's loading Job; {@link #show} only builds widgets.
 */
public final class TraceOverview extends ScrolledComposite {
    /** How many kernels the chart names. */
    static final int TOP_KERNELS = 8;
    /** How many streams the chart names. */
    static final int TOP_STREAMS = 8;
    private static final int CHART_HEIGHT = 230;

    private final Composite content;
    private final Map<String, String> shown = new LinkedHashMap<>();
    private final List<JFreeChart> charts = new ArrayList<>();
    private @Nullable String lastFile;
    private @Nullable Overview lastOverview;

    /** An empty page; {@link #setText} shows a message, {@link #show} the overview. */
    public TraceOverview(Composite parent) {
        super(parent, SWT.V_SCROLL | SWT.H_SCROLL);
        setData(TracesView.ROLE, "overview");
        content = new Composite(this, SWT.NONE);
        setContent(content);
        setExpandHorizontal(true);
        setExpandVertical(true);
        setBackground(BuffersTheme.color("background"));
        content.setBackground(getBackground());
        addListener(SWT.Resize, e -> relayout());
        // colours come from the theme: a switch of theme redraws the page in the new one
        org.phos.workbench.internal.ui.theme.PhoenixThemes.onChange(this, () -> {
            setBackground(BuffersTheme.color("background"));
            content.setBackground(getBackground());
            if (lastFile != null && lastOverview != null) {
                show(lastFile, lastOverview);
            }
        });
    }

    /** The figures of {@code trace}, from the analysis layer (off the UI thread: the editor's loading Job). */
    public static Overview compute(Trace trace, @Nullable IProgressMonitor monitor) {
        return Analysis.session().overview(new OverviewQuery(trace, TOP_KERNELS, 400), monitor);
    }

    /** Shows a message (loading, failure) in place of the overview. */
    public void setText(String message) {
        clear();
        Label l = new Label(content, SWT.WRAP);
        l.setText(message);
        l.setData(TracesView.ROLE, "overview-message");
        themed(l);
        GridLayoutFactory.fillDefaults().margins(10, 8).applyTo(content);
        GridDataFactory.fillDefaults().grab(true, false).applyTo(l);
        shown.put("message", message);
        relayout();
    }

    /** @return what the page shows, by field: the header lines ("recorder", "command", ...) and summary lines */
    public Map<String, String> shownValues() {
        return Map.copyOf(shown);
    }

    /** @return the charts shown (kernels, memory, streams), for tests and exports */
    public List<JFreeChart> charts() {
        return List.copyOf(charts);
    }

    private void clear() {
        for (Control c : content.getChildren()) {
            c.dispose();
        }
        shown.clear();
        charts.clear();
    }

    private void relayout() {
        int width = Math.max(200, getClientArea().width);
        Point size = content.computeSize(width, SWT.DEFAULT);
        setMinSize(Math.min(size.x, 640), size.y);
        content.layout(true, true);
    }

    /** Shows {@code o}: header, counts, charts. */
    public void show(String file, Overview o) {
        lastFile = file;
        lastOverview = o;
        clear();
        GridLayoutFactory.fillDefaults().numColumns(2).equalWidth(true).margins(10, 8).spacing(12, 10)
                .applyTo(content);

        Group header = group("Trace", 2);
        GridDataFactory.fillDefaults().grab(true, false).span(2, 1).applyTo(header);
        GridLayoutFactory.fillDefaults().numColumns(2).margins(6, 4).spacing(12, 2).applyTo(header);
        field(header, "file", file);
        o.header().forEach((k, v) -> field(header, k, v));
        int launches = o.counts().getOrDefault(EventKind.LAUNCH, 0);
        StringBuilder counts = new StringBuilder();
        o.counts().forEach((k, v) -> counts.append(counts.isEmpty() ? "" : ", ")
                .append(String.format(Locale.ROOT, "%,d %s", v, k.name().toLowerCase(Locale.ROOT).replace('_', ' '))));
        field(header, "events", String.format(Locale.ROOT, "%,d: %s", o.eventCount(), counts));
        Overview.Truth t = o.truth();
        field(header, "truth", t.records() == 0 ? t.summary()
                : String.format(Locale.ROOT, "%,d records for %,d of %,d launches by %s; %,d reliable, %,d not (%s)",
                        t.records(), t.launches(), launches, String.join(", ", t.recordsByTool().keySet()),
                        t.reliableLaunches(), t.unreliableLaunches(), t.summary()));

        ChartPalette palette = palette();
        SmallChartBuilder builder = new SmallChartBuilder(palette);
        Color bar = awt(BuffersTheme.rgb("chart-bar"));

        // kernels by GPU time
        List<Overview.KernelTime> kernels = new ArrayList<>(o.kernels());
        if (o.otherKernels() != null) {
            kernels.add(o.otherKernels());
        }
        long maxNs = kernels.stream().mapToLong(Overview.KernelTime::gpuNs).max().orElse(0);
        long allNs = kernels.stream().mapToLong(Overview.KernelTime::gpuNs).sum();
        TimeUnitScale time = TimeUnitScale.forSpan(maxNs);
        // short group titles: a long one runs into the next column's title when the editor is narrow
        Group kernelGroup = group("Kernels by GPU time", 1);
        note(kernelGroup, String.format(Locale.ROOT, "%d kernels, %s in all", o.kernelCount(), duration(allNs)));
        if (kernels.isEmpty() || allNs == 0) {
            note(kernelGroup, kernels.isEmpty() ? "No launches." : "No GPU times in this trace (GPU timing off).");
        } else {
            chart(kernelGroup, builder.bars("GPU time (" + time.label() + ")",
                    kernels.stream().map(k -> KernelNames.shorten(k.name(), 34)).toList(),
                    kernels.stream().mapToDouble(k -> time.of(k.gpuNs())).toArray(), bar, "#,##0.##"));
        }
        shown.put("kernels", kernels.isEmpty() ? "" : kernels.get(0).name());

        // memory over time, by kind
        Overview.Memory m = o.memory();
        Group memory = group("Memory", 1);
        note(memory, String.format(Locale.ROOT, "peak %s live, %,d allocations, %,d frees",
                Overview.bytes(m.peakLiveBytes()), m.allocations(), m.frees()));
        shown.put("peak", Overview.bytes(m.peakLiveBytes()));
        if (m.allocations() == 0) {
            note(memory, "No allocations.");
        } else {
            chart(memory, memoryChart(builder, m));
            StringBuilder kinds = new StringBuilder();
            m.byKind().forEach((k, v) -> kinds.append(kinds.isEmpty() ? "" : "\n").append(String.format(Locale.ROOT,
                    "%-12s %,7d allocs  %10s in all  peak %10s", kind(k), v.allocations(),
                    Overview.bytes(v.allocatedBytes()), Overview.bytes(v.peakLiveBytes()))));
            Label l = note(memory, kinds + String.format(Locale.ROOT, "%n%-12s %s", "live at end",
                    Overview.bytes(m.liveAtEndBytes())));
            l.setFont(JFaceResources.getTextFont());
        }

        // launches per stream
        List<Overview.StreamLaunches> streams = o.streams();
        Group streamGroup = group("Launches per stream", 1);
        note(streamGroup, String.format(Locale.ROOT, "%d %s", streams.size(), streams.size() == 1 ? "stream" : "streams"));
        if (streams.isEmpty()) {
            note(streamGroup, "No launches.");
        } else {
            List<Overview.StreamLaunches> top = streams.subList(0, Math.min(TOP_STREAMS, streams.size()));
            List<String> names = new ArrayList<>();
            List<Double> values = new ArrayList<>();
            for (Overview.StreamLaunches s : top) {
                names.add(s.stream() == 0 ? "default (0)" : "0x" + Long.toHexString(s.stream()));
                values.add((double) s.launches());
            }
            if (streams.size() > top.size()) {
                names.add((streams.size() - top.size()) + " others");
                values.add((double) streams.subList(top.size(), streams.size()).stream()
                        .mapToLong(Overview.StreamLaunches::launches).sum());
            }
            chart(streamGroup, builder.bars("launches", names, values.stream().mapToDouble(Double::doubleValue)
                    .toArray(), bar, "#,##0"));
        }

        // ground truth per tool
        Group truth = group("Ground truth", 1);
        if (t.records() == 0) {
            note(truth, "None: this trace holds no observed accesses, so validate has nothing to compare with.");
        } else {
            StringBuilder b = new StringBuilder();
            t.recordsByTool().forEach((tool, n) -> b.append(String.format(Locale.ROOT, "%-12s %,9d records%n", tool, n)));
            b.append(String.format(Locale.ROOT, "%-12s %,9d of %,d launches%n", "observed", t.launches(), launches));
            b.append(String.format(Locale.ROOT, "%-12s %,9d launches%n", "reliable", t.reliableLaunches()));
            b.append(String.format(Locale.ROOT, "%-12s %,9d launches", "unreliable", t.unreliableLaunches()));
            Label l = note(truth, b.toString());
            l.setFont(JFaceResources.getTextFont());
            note(truth, t.summary());
        }
        relayout();
    }

    private JFreeChart memoryChart(SmallChartBuilder builder, Overview.Memory m) {
        List<AllocKind> kinds = Overview.kinds();
        // the kinds this trace allocated, folded into the three colours the theme has (device, managed, host pinned)
        List<String> keys = new ArrayList<>();
        for (AllocKind k : m.byKind().keySet()) {
            String key = BuffersTheme.kindKey(k);
            if (!keys.contains(key)) {
                keys.add(key);
            }
        }
        List<Overview.MemorySample> curve = m.curve();
        long lastNs = curve.isEmpty() ? 0 : curve.get(curve.size() - 1).hostNs();
        TimeUnitScale time = TimeUnitScale.forSpan(lastNs);
        ByteUnitScale bytes = ByteUnitScale.forMax(m.peakLiveBytes());
        double[] x = new double[curve.size()];
        double[][] y = new double[keys.size()][curve.size()];
        for (int i = 0; i < curve.size(); i++) {
            Overview.MemorySample s = curve.get(i);
            x[i] = time.of(s.hostNs());
            for (int k = 0; k < kinds.size(); k++) {
                int series = keys.indexOf(BuffersTheme.kindKey(kinds.get(k)));
                if (series >= 0) {
                    y[series][i] += bytes.of(s.liveBytesByKind()[k]);
                }
            }
        }
        return builder.stackedArea("host time (" + time.label() + ")", "live (" + bytes.label() + ")",
                keys.stream().map(BuffersTheme::kindLabel).toList(), x, y,
                keys.stream().map(k -> awt(BuffersTheme.rgb(k))).toList());
    }

    /** Theme background and text colour on {@code c} (native labels and groups keep the system's otherwise). */
    private void themed(org.eclipse.swt.widgets.Control c) {
        c.setBackground(getBackground());
        c.setForeground(BuffersTheme.color("foreground"));
    }

    private Group group(String title, int columns) {
        Group g = new Group(content, SWT.NONE);
        g.setText(title);
        themed(g);
        GridLayoutFactory.fillDefaults().numColumns(columns).margins(6, 4).applyTo(g);
        GridDataFactory.fillDefaults().grab(true, false).applyTo(g);
        return g;
    }

    private void field(Composite parent, String key, String value) {
        Label name = new Label(parent, SWT.NONE);
        name.setText(key);
        themed(name);
        name.setFont(JFaceResources.getBannerFont());
        Label v = new Label(parent, SWT.WRAP);
        v.setText(value);
        v.setData(TracesView.ROLE, "overview-" + key);
        themed(v);
        GridDataFactory.fillDefaults().grab(true, false).hint(200, SWT.DEFAULT).applyTo(v);
        shown.put(key, value);
    }

    private Label note(Composite parent, String text) {
        Label l = new Label(parent, SWT.WRAP);
        l.setText(text);
        themed(l);
        GridDataFactory.fillDefaults().grab(true, false).hint(200, SWT.DEFAULT).applyTo(l);
        return l;
    }

    private void chart(Composite parent, JFreeChart chart) {
        int height = CHART_HEIGHT;
        if (chart.getPlot() instanceof org.jfree.chart.plot.CategoryPlot p) { // bars: as tall as their count needs
            height = Math.max(110, Math.min(CHART_HEIGHT + 40, 64 + 22 * p.getCategories().size()));
        }
        try {
            // no zoom, save or print menus: a glance, not a plot editor; tooltips on
            ChartComposite c = new ChartComposite(parent, SWT.NONE, chart, 400, height, 200, 100, 4000, 2000,
                    true, false, false, false, false, true);
            c.setData(TracesView.ROLE, "overview-chart");
            GridDataFactory.fillDefaults().grab(true, false).hint(300, height).applyTo(c);
            charts.add(chart);
        } catch (RuntimeException | LinkageError e) {
            // the figures are in the labels; say why the picture is missing rather than leave a hole
            note(parent, "Cannot draw this chart: " + e);
            shown.merge("chart-errors", e.toString(), (a, b) -> a + "; " + b);
        }
    }

    private ChartPalette palette() {
        RGB bg = BuffersTheme.rgb("background");
        RGB fg = BuffersTheme.rgb("foreground");
        RGB grid = new RGB((bg.red * 3 + fg.red) / 4, (bg.green * 3 + fg.green) / 4, (bg.blue * 3 + fg.blue) / 4);
        return new ChartPalette(awt(bg), awt(fg), awt(grid));
    }

    private static Color awt(RGB rgb) {
        return new Color(rgb.red, rgb.green, rgb.blue);
    }

    private static String kind(AllocKind k) {
        return k.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    private static String duration(long ns) {
        TimeUnitScale t = TimeUnitScale.forSpan(ns);
        return String.format(Locale.ROOT, "%.3g %s", t.of(ns), t.label());
    }
}
