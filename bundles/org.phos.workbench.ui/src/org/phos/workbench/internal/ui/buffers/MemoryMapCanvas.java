package org.phos.workbench.internal.ui.buffers;

import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.resource.JFaceResources;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Composite;
import org.phos.workbench.analysis.core.BufferRow;
import org.phos.workbench.analysis.core.Overview;
import org.phos.workbench.trace.core.AddressRange;

/**
 * The memory map: every allocation of a trace as a rectangle from its allocation event to its free event (or the
 * end of the trace) over its address range, addresses compressed by {@link MemoryMapLayout}; coloured by allocation
 * kind. The selected launch adds a vertical time marker and, left of it, the engine's speculated ranges, right of it
 * the observed read and written ranges; the allocations it names are outlined. The selected allocation is outlined
 * too. Hovering shows the allocation under the pointer; a click selects it.
 * <p>
 * Painting: the allocations are drawn once per size into an offscreen image, the marker, ranges and selection over
 * it on every repaint, so selecting a launch or an allocation does not redraw tens of thousands of rectangles.
 */
final class MemoryMapCanvas extends Canvas {
    static final int LEFT = 104;
    static final int RIGHT = 10;
    static final int TOP = 22;
    static final int BOTTOM = 20;
    /** Half the width of the range bars at the launch marker. */
    static final int BAR = 12;

    private List<BufferRow> rows = List.of();
    private @Nullable MemoryMapLayout layout;
    private @Nullable LaunchOverlay overlay;
    private @Nullable BufferRow selected;
    private @Nullable Image cache;
    private String message = "";
    private Consumer<BufferRow> onSelect = r -> { };
    private long firstPaintNanos;

    MemoryMapCanvas(Composite parent) {
        super(parent, SWT.DOUBLE_BUFFERED | SWT.NO_BACKGROUND);
        addPaintListener(e -> {
            Rectangle area = getClientArea();
            paintInto(e.gc, area.width, area.height);
            if (firstPaintNanos == 0 && layout != null) {
                firstPaintNanos = System.nanoTime();
            }
        });
        addListener(SWT.Resize, e -> dropCache());
        addListener(SWT.Dispose, e -> dropCache());
        // the cached allocations image holds the old theme's colours
        org.phos.workbench.internal.ui.theme.PhoenixThemes.onChange(this, () -> {
            dropCache();
            redraw();
        });
        addListener(SWT.MouseMove, e -> {
            Point at = pointer();
            BufferRow r = hit(at.x, at.y);
            String tip = r == null ? null : describe(r);
            if (!java.util.Objects.equals(tip, getToolTipText())) {
                setToolTipText(tip);
            }
        });
        addListener(SWT.MouseDown, e -> {
            Point at = pointer();
            BufferRow r = hit(at.x, at.y);
            if (e.button == 1 && r != null) {
                onSelect.accept(r);
            }
        });
    }

    /**
     * The pointer's position in this canvas, taken from the pointer itself rather than the event: buttons pressed
     * through XTest (UI tests under Xvfb without a window manager) arrive with coordinates relative to the wrong
     * window (as the timeline found); for a person's click the two are the same point.
     */
    private Point pointer() {
        return toControl(getDisplay().getCursorLocation());
    }

    /** Shows {@code message} in place of a map (loading, no trace, failure). */
    void showMessage(String text) {
        rows = List.of();
        layout = null;
        overlay = null;
        selected = null;
        message = text;
        firstPaintNanos = 0;
        dropCache();
        redraw();
    }

    /** Shows the allocations {@code all} laid out by {@code map}. */
    void setModel(List<BufferRow> all, MemoryMapLayout map) {
        rows = all;
        layout = map;
        message = "";
        firstPaintNanos = 0;
        dropCache();
        redraw();
    }

    void setOverlay(@Nullable LaunchOverlay launch) {
        overlay = launch;
        redraw();
    }

    @Nullable
    LaunchOverlay overlay() {
        return overlay;
    }

    void setSelected(@Nullable BufferRow row) {
        selected = row;
        redraw();
    }

    void onSelect(Consumer<BufferRow> listener) {
        onSelect = listener;
    }

    /** @return when the first paint with allocations ended ({@link System#nanoTime()}), 0 before */
    long firstPaintNanos() {
        return firstPaintNanos;
    }

    /** Drops the offscreen image of the allocations: the next paint draws them again. */
    void dropCache() {
        if (cache != null) {
            cache.dispose();
            cache = null;
        }
    }

    private Rectangle plot(int width, int height) {
        return new Rectangle(LEFT, TOP, Math.max(1, width - LEFT - RIGHT), Math.max(1, height - TOP - BOTTOM));
    }

    /** Paints the whole map into {@code gc} at {@code width} × {@code height} (also used by the benchmark). */
    void paintInto(GC gc, int width, int height) {
        Color background = BuffersTheme.color("background");
        Color foreground = BuffersTheme.color("foreground");
        MemoryMapLayout map = layout;
        if (map == null) {
            gc.setBackground(background);
            gc.fillRectangle(0, 0, width, height);
            gc.setForeground(foreground);
            gc.drawText(message, 8, 8, true);
            return;
        }
        if (cache == null || cache.getBounds().width != width || cache.getBounds().height != height) {
            dropCache();
            cache = new Image(getDisplay(), Math.max(1, width), Math.max(1, height));
            GC image = new GC(cache);
            try {
                paintAllocations(image, map, width, height, background, foreground);
            } finally {
                image.dispose();
            }
        }
        gc.drawImage(cache, 0, 0);
        paintOverlay(gc, map, plot(width, height));
    }

    private void paintAllocations(GC gc, MemoryMapLayout map, int width, int height, Color background,
            Color foreground) {
        gc.setFont(JFaceResources.getDefaultFont());
        gc.setBackground(background);
        gc.fillRectangle(0, 0, width, height);
        Rectangle p = plot(width, height);
        gc.setBackground(BuffersTheme.color("segment"));
        for (MemoryMapLayout.Segment s : map.segments()) {
            int y0 = y(p, s.y1());
            gc.fillRectangle(p.x, y0, p.width, Math.max(1, y(p, s.y0()) - y0));
        }
        Color outline = BuffersTheme.color("outline");
        String lastKey = null;
        for (BufferRow r : rows) {
            String key = BuffersTheme.kindKey(r.kind());
            if (!key.equals(lastKey)) {
                gc.setBackground(BuffersTheme.color(key));
                lastKey = key;
            }
            Rectangle b = bounds(p, map, r);
            gc.fillRectangle(b);
            if (b.width >= 6 && b.height >= 6) {
                gc.setForeground(outline);
                gc.drawRectangle(b.x, b.y, b.width - 1, b.height - 1);
            }
        }
        // address labels: the base of each segment, where there is room
        gc.setForeground(foreground);
        int lineHeight = gc.getFontMetrics().getHeight();
        int lastLabel = Integer.MAX_VALUE;
        for (MemoryMapLayout.Segment s : map.segments()) {
            int y = y(p, s.y0());
            if (lastLabel - y >= lineHeight + 2) {
                String text = "0x" + Long.toHexString(s.base());
                Point size = gc.textExtent(text);
                gc.drawText(text, Math.max(2, p.x - 6 - size.x), Math.max(TOP - 2, y - size.y), true);
                gc.drawLine(p.x - 4, y, p.x - 1, y);
                lastLabel = y - size.y;
            }
        }
        // event axis
        gc.drawLine(p.x, p.y + p.height, p.x + p.width, p.y + p.height);
        int events = map.events();
        long step = niceStep(events / Math.max(1.0, p.width / 110.0));
        for (long e = 0; e <= events; e += step) {
            int x = p.x + (int) Math.round(map.x((int) e) * p.width);
            gc.drawLine(x, p.y + p.height, x, p.y + p.height + 3);
            String text = String.format(Locale.ROOT, "%,d", e);
            Point size = gc.textExtent(text);
            if (x + size.x / 2 <= width) {
                gc.drawText(text, Math.max(p.x, x - size.x / 2), p.y + p.height + 3, true);
            }
        }
        String axis = "event →";
        gc.drawText(axis, 4, p.y + p.height + 3, true);
        paintLegend(gc, width);
    }

    private void paintLegend(GC gc, int width) {
        String engine = overlay == null ? "best" : overlay.engine();
        String[][] items = { { "kind-device", "device", "device" }, { "kind-managed", "managed", "managed" },
                { "kind-host", "host pinned", "host" }, { "speculated", "speculated (" + engine + ")", engine },
                { "observed-read", "observed read", "read" }, { "observed-write", "observed written", "written" } };
        // long labels where they fit, short ones in a narrow view
        int label = 1;
        int total = 0;
        for (String[] item : items) {
            total += gc.textExtent(item[1]).x + 18;
        }
        if (total > width - RIGHT - 8) {
            label = 2;
        }
        int x = width - RIGHT;
        for (int i = items.length - 1; i >= 0; i--) {
            Point size = gc.textExtent(items[i][label]);
            x -= size.x + 18;
            gc.setBackground(BuffersTheme.color(items[i][0]));
            gc.fillRectangle(x, 6, 10, 10);
            gc.drawText(items[i][label], x + 13, 3, true);
        }
    }

    private void paintOverlay(GC gc, MemoryMapLayout map, Rectangle p) {
        BufferRow sel = selected;
        if (sel != null) {
            gc.setForeground(BuffersTheme.color("selection"));
            gc.setLineWidth(2);
            Rectangle b = bounds(p, map, sel);
            gc.drawRectangle(b.x - 1, b.y - 1, b.width + 1, b.height + 1);
            gc.setLineWidth(1);
        }
        LaunchOverlay o = overlay;
        if (o == null) {
            return;
        }
        int x = p.x + (int) Math.round(map.x(o.event()) * p.width);
        gc.setForeground(BuffersTheme.color("launch-marker"));
        gc.setLineStyle(SWT.LINE_DASH);
        gc.drawLine(x, p.y, x, p.y + p.height);
        gc.setLineStyle(SWT.LINE_SOLID);
        for (LaunchOverlay.Named n : o.allocations()) {
            int top = y(p, map.y(n.base() + n.size()));
            int bottom = y(p, map.y(n.base()));
            if (bottom - top >= 4) { // frames of thinner allocations would merge into one dark bar over the ranges
                gc.drawRectangle(x - BAR - 2, top - 1, 2 * BAR + 3, bottom - top + 1);
            }
        }
        for (LaunchOverlay.Named n : o.allocations()) {
            bars(gc, map, p, n.speculated(), x - BAR, BAR, "speculated");
            bars(gc, map, p, n.observedRead(), x + 1, BAR / 2, "observed-read");
            bars(gc, map, p, n.observedWritten(), x + 1 + BAR / 2, BAR - BAR / 2, "observed-write");
        }
        String label = "launch " + o.launch();
        Point size = gc.textExtent(label);
        int lx = x + size.x + BAR + 4 > p.x + p.width ? x - size.x - BAR - 4 : x + BAR + 4;
        gc.setForeground(BuffersTheme.color("launch-marker"));
        gc.drawText(label, lx, p.y + 2, true);
    }

    private static void bars(GC gc, MemoryMapLayout map, Rectangle p, List<AddressRange> ranges, int x, int width,
            String key) {
        gc.setBackground(BuffersTheme.color(key));
        for (AddressRange r : ranges) {
            int top = y(p, map.y(r.end()));
            int bottom = y(p, map.y(r.begin()));
            gc.fillRectangle(x, Math.min(top, bottom - 2), width, Math.max(2, bottom - top));
        }
    }

    private static int y(Rectangle p, double share) {
        return p.y + (int) Math.round((1 - share) * p.height);
    }

    private static Rectangle bounds(Rectangle p, MemoryMapLayout map, BufferRow r) {
        int x0 = p.x + (int) Math.floor(map.x(r.allocatedAt()) * p.width);
        int x1 = r.freedAt() < 0 ? p.x + p.width : p.x + (int) Math.ceil(map.x(r.freedAt()) * p.width);
        int top = y(p, map.y(r.base() + r.size()));
        int bottom = y(p, map.y(r.base()));
        return new Rectangle(x0, top, Math.max(1, x1 - x0), Math.max(1, bottom - top));
    }

    /** @return the allocation drawn at ({@code x}, {@code y}), the latest allocated when several are, or null */
    @Nullable
    BufferRow hit(int x, int y) {
        MemoryMapLayout map = layout;
        if (map == null) {
            return null;
        }
        Rectangle area = getClientArea();
        Rectangle p = plot(area.width, area.height);
        BufferRow found = null;
        for (BufferRow r : rows) {
            Rectangle b = bounds(p, map, r);
            // a rectangle thinner than 3 px is easier to hit with a pixel of slack around it
            if (x >= b.x - (b.width < 3 ? 1 : 0) && x <= b.x + b.width && y >= b.y - (b.height < 3 ? 1 : 0)
                    && y <= b.y + b.height) {
                found = r;
            }
        }
        return found;
    }

    /** @return the centre of {@code r}'s rectangle in this canvas (for tests clicking it) */
    Point centre(BufferRow r) {
        Rectangle area = getClientArea();
        Rectangle p = plot(area.width, area.height);
        Rectangle b = bounds(p, layout, r);
        return new Point(b.x + b.width / 2, b.y + b.height / 2);
    }

    /** @return the hover text of an allocation */
    static String describe(BufferRow r) {
        return String.format(Locale.ROOT, "alloc@%d  0x%s .. 0x%s%n%s, %s%nallocated at event %,d, %s%n"
                + "observed launches: %,d read, %,d wrote, %,d touched", r.allocatedAt(), Long.toHexString(r.base()),
                Long.toHexString(r.base() + r.size()), Overview.bytes(r.size()),
                r.kind().name().toLowerCase(Locale.ROOT).replace('_', ' '), r.allocatedAt(),
                r.freedAt() < 0 ? "never freed" : String.format(Locale.ROOT, "freed at event %,d", r.freedAt()),
                r.launchesRead(), r.launchesWritten(), r.launchesTouched());
    }

    /** @return 1, 2 or 5 times a power of ten, at least {@code raw} */
    static long niceStep(double raw) {
        long p = 1;
        while (p * 10 <= raw) {
            p *= 10;
        }
        for (long m : new long[] { 1, 2, 5, 10 }) {
            if (m * p >= raw) {
                return Math.max(1, m * p);
            }
        }
        return Math.max(1, 10 * p);
    }
}
