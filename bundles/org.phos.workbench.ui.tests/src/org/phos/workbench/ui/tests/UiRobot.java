package org.phos.workbench.ui.tests;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Shell;

/**
 * Drives the running workbench the way a person does, with real input events ({@link Display#post}, which goes
 * through XTest under X11/Xvfb), in place of SWTBot (not on Maven Central). Runs on the UI thread: every wait spins
 * the event loop so the workbench keeps painting and reacting.
 */
public final class UiRobot {
    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    private final Display display;

    public UiRobot(Display display) {
        this.display = display;
    }

    public Display display() {
        return display;
    }

    /** Processes events for {@code millis} milliseconds. */
    public void spin(long millis) {
        long end = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < end) {
            if (!display.readAndDispatch()) {
                display.timerExec(10, () -> { });
                display.sleep();
            }
        }
    }

    /** Spins the event loop until {@code condition} holds; fails naming {@code what} after the timeout. */
    public void waitUntil(String what, BooleanSupplier condition) {
        waitUntil(what, condition, DEFAULT_TIMEOUT);
    }

    public void waitUntil(String what, BooleanSupplier condition, Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("Timed out after " + timeout.toMillis() + " ms waiting until " + what);
            }
            spin(25);
        }
    }

    /** All controls of the given type below {@code root} (depth first) that match {@code filter}. */
    public static <T extends Control> List<T> findAll(Control root, Class<T> type, Predicate<? super T> filter) {
        List<T> found = new ArrayList<>();
        collect(root, type, filter, found);
        return found;
    }

    private static <T extends Control> void collect(Control c, Class<T> type, Predicate<? super T> filter,
            List<T> out) {
        if (type.isInstance(c) && filter.test(type.cast(c))) {
            out.add(type.cast(c));
        }
        if (c instanceof Composite composite) {
            for (Control child : composite.getChildren()) {
                collect(child, type, filter, out);
            }
        }
    }

    /** The one visible control of {@code type} below {@code root} whose data {@code key} equals {@code value}. */
    public <T extends Control> T findByData(Control root, Class<T> type, String key, Object value) {
        List<T> hits = findAll(root, type, c -> c.isVisible() && value.equals(c.getData(key)));
        if (hits.size() != 1) {
            throw new AssertionError("Expected one visible " + type.getSimpleName() + " with " + key + "=" + value
                    + " but found " + hits.size());
        }
        return hits.get(0);
    }

    public <T extends Control> Optional<T> find(Control root, Class<T> type, Predicate<? super T> filter) {
        return findAll(root, type, filter).stream().findFirst();
    }

    /** Moves the pointer to the centre of {@code control} and clicks the left button. */
    public void click(Control control) {
        Point size = control.getSize();
        click(control, size.x / 2, size.y / 2);
    }

    /** Clicks at ({@code x}, {@code y}) in {@code control}'s coordinates. */
    public void click(Control control, int x, int y) {
        control.getShell().forceActive();
        spin(50);
        moveTo(display.map(control, null, x, y));
        for (int type : new int[] { SWT.MouseDown, SWT.MouseUp }) {
            Event e = new Event();
            e.type = type;
            e.button = 1;
            post(e);
        }
        spin(100);
    }

    /** Double-clicks at ({@code x}, {@code y}) in {@code control}'s coordinates (two clicks within the double-click time). */
    public void doubleClick(Control control, int x, int y) {
        control.getShell().forceActive();
        spin(50);
        moveTo(display.map(control, null, x, y));
        for (int i = 0; i < 2; i++) {
            for (int type : new int[] { SWT.MouseDown, SWT.MouseUp }) {
                Event e = new Event();
                e.type = type;
                e.button = 1;
                post(e);
            }
        }
        spin(100);
    }

    /** Presses the left button at ({@code x0}, {@code y0}) in {@code control}, moves to ({@code x1}, {@code y1}) in steps, releases. */
    public void drag(Control control, int x0, int y0, int x1, int y1) {
        control.getShell().forceActive();
        spin(50);
        moveTo(display.map(control, null, x0, y0));
        Event down = new Event();
        down.type = SWT.MouseDown;
        down.button = 1;
        post(down);
        for (int i = 1; i <= 5; i++) {
            moveTo(display.map(control, null, x0 + (x1 - x0) * i / 5, y0 + (y1 - y0) * i / 5));
        }
        Event up = new Event();
        up.type = SWT.MouseUp;
        up.button = 1;
        post(up);
        spin(100);
    }

    /**
     * Puts the pointer at display point {@code p}: a posted MouseMove alone does not move it under Xvfb without a
     * window manager (the buttons then press wherever it was), so the cursor is also warped there.
     */
    public void moveTo(Point p) {
        display.setCursorLocation(p);
        Event move = new Event();
        move.type = SWT.MouseMove;
        move.x = p.x;
        move.y = p.y;
        post(move);
        spin(30);
    }

    /** Types {@code text} character by character, as key presses. */
    public void type(String text) {
        for (char c : text.toCharArray()) {
            for (int type : new int[] { SWT.KeyDown, SWT.KeyUp }) {
                Event e = new Event();
                e.type = type;
                e.character = c;
                post(e);
            }
        }
        spin(100);
    }

    // i12-crtimeline: begin (moved here from LaunchFiltersUiTest: the C/R views' tests pick runs the same way)
    /** Chooses {@code label} in a read-only combo by real input: click opens its list, arrow keys, Enter. */
    public void choose(org.eclipse.swt.widgets.Combo combo, String label) {
        int want = java.util.Arrays.asList(combo.getItems()).indexOf(label);
        if (want < 0) {
            throw new AssertionError(label + " is not offered: " + java.util.Arrays.toString(combo.getItems()));
        }
        click(combo);
        spin(400);
        int from = Math.max(0, combo.getSelectionIndex());
        for (int i = from; i != want; i += want > from ? 1 : -1) {
            key(want > from ? SWT.ARROW_DOWN : SWT.ARROW_UP);
        }
        key(SWT.CR);
        waitUntil("the combo shows " + label + " (shows " + combo.getText() + ")", () -> combo.getSelectionIndex() == want);
    }
    // i12-crtimeline: end

    /** Presses and releases a key given by its SWT key code (for example {@code SWT.F5}, {@code SWT.CR}). */
    public void key(int keyCode) {
        keyWith(0, keyCode, '\0');
    }

    /** Presses {@code character} while holding the modifier key (for example {@code SWT.CTRL}, {@code 'a'}). */
    public void keyWith(int modifier, int keyCode, char character) {
        if (modifier != 0) {
            post(keyEvent(SWT.KeyDown, modifier, '\0'));
        }
        post(keyEvent(SWT.KeyDown, keyCode, character));
        post(keyEvent(SWT.KeyUp, keyCode, character));
        if (modifier != 0) {
            post(keyEvent(SWT.KeyUp, modifier, '\0'));
        }
        spin(100);
    }

    private static Event keyEvent(int type, int keyCode, char character) {
        Event e = new Event();
        e.type = type;
        e.keyCode = keyCode;
        e.character = character;
        return e;
    }

    private void post(Event e) {
        if (!display.post(e)) {
            throw new AssertionError("Display.post refused event type " + e.type + " (no XTest on this display?)");
        }
        spin(15);
    }

    /** Saves the screen's pixels inside {@code area} (display coordinates) as PNG {@code file}. */
    static void savePng(Display display, Rectangle area, Path file) {
        Image image = new Image(display, area.width, area.height);
        GC gc = new GC(display);
        try {
            gc.copyArea(image, area.x, area.y);
            ImageLoader loader = new ImageLoader();
            loader.data = new ImageData[] { image.getImageData() };
            loader.save(file.toString(), SWT.IMAGE_PNG);
        } finally {
            gc.dispose();
            image.dispose();
        }
    }

    /**
     * Saves what is on screen inside {@code shell} as PNG into the folder named by system property
     * {@code phos.screenshots} (default: the temp folder); returns the file.
     */
    public Path screenshot(Shell shell, String name) throws Exception {
        spin(100);
        Path dir = Path.of(System.getProperty("phos.screenshots", System.getProperty("java.io.tmpdir")));
        Files.createDirectories(dir);
        Path file = dir.resolve(name + ".png");
        savePng(display, shell.getBounds(), file);
        System.out.println("UI screenshot: " + file);
        return file;
    }
}
