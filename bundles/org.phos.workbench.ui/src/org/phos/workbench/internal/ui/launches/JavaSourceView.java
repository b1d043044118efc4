package org.phos.workbench.internal.ui.launches;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.resource.JFaceResources;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.Bullet;
import org.eclipse.swt.custom.ST;
import org.eclipse.swt.custom.StyleRange;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.GlyphMetrics;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.part.ViewPart;
import org.phos.workbench.internal.ui.TracesView;

/**
 * "Java Source": a read-only view of the Java file a launch was issued from (Open Java Source in the Launches view),
 * with line numbers and the call site's line highlighted, selected and scrolled into view. A view of its own on a
 * StyledText: the target platform has no text editors (org.eclipse.ui.editors, jface.text).
 */
public final class JavaSourceView extends ViewPart {
    /** The view id in plugin.xml. */
    public static final String ID = "org.phos.workbench.ui.javaSourceView";
    /** Theme colour ids (plugin.xml, org.eclipse.ui.themes). */
    static final String LINE_COLOR = "org.phos.workbench.ui.javaSource.line";
    static final String NUMBER_COLOR = "org.phos.workbench.ui.javaSource.number";

    private Label title;
    private StyledText text;
    private @Nullable Path file;
    private int line = -1;
    /** A theme switch gives the highlight and the numbers the new theme's colours. */
    private final org.eclipse.jface.util.IPropertyChangeListener themeListener = e -> {
        if (text != null && !text.isDisposed()) {
            highlight();
            text.redraw();
        }
    };

    @Override
    public void createPartControl(Composite parent) {
        GridLayout layout = new GridLayout(1, false);
        layout.marginWidth = 0;
        layout.marginHeight = 0;
        layout.verticalSpacing = 2;
        parent.setLayout(layout);
        title = new Label(parent, SWT.NONE);
        title.setData(TracesView.ROLE, "javaSourceTitle");
        title.setText("No Java source: use Open Java Source on a launch with a java_site");
        title.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        text = new StyledText(parent, SWT.READ_ONLY | SWT.H_SCROLL | SWT.V_SCROLL | SWT.BORDER);
        text.setData(TracesView.ROLE, "javaSource");
        text.setFont(JFaceResources.getTextFont());
        text.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        text.addLineStyleListener(e -> {
            // the line number in the left margin, as a bullet (the StyledText way of a ruler)
            int lineIndex = text.getLineAtOffset(e.lineOffset);
            StyleRange style = new StyleRange();
            style.foreground = theme(NUMBER_COLOR);
            style.metrics = new GlyphMetrics(0, 0, numberWidth());
            e.bullet = new Bullet(ST.BULLET_TEXT, style);
            e.bullet.text = String.format("%" + digits() + "d ", lineIndex + 1);
            e.bulletIndex = lineIndex;
        });
        PlatformUI.getWorkbench().getThemeManager().addPropertyChangeListener(themeListener);
    }

    private void highlight() {
        text.setLineBackground(0, text.getLineCount(), null);
        if (line > 0 && line <= text.getLineCount()) {
            text.setLineBackground(line - 1, 1, theme(LINE_COLOR));
        }
    }

    @Override
    public void dispose() {
        PlatformUI.getWorkbench().getThemeManager().removePropertyChangeListener(themeListener);
        super.dispose();
    }

    /**
     * Shows {@code source} with its line {@code lineNumber} (1-based; -1: none) highlighted, selected and scrolled
     * into view; {@code site} names the call in the title.
     */
    public void show(Path source, int lineNumber, String site) throws IOException {
        String content;
        try {
            content = Files.readString(source, StandardCharsets.UTF_8);
        } catch (MalformedInputException e) {
            content = Files.readString(source, StandardCharsets.ISO_8859_1);
        }
        file = source;
        line = lineNumber;
        text.setText(content.replace("\r\n", "\n"));
        highlight();
        setPartName("Java Source: " + source.getFileName());
        setContentDescription("");
        title.setText(source + (lineNumber > 0 ? ":" + lineNumber : "") + "   (" + site + ")");
        title.setToolTipText(title.getText());
        if (lineNumber > 0 && lineNumber <= text.getLineCount()) {
            int index = lineNumber - 1;
            int start = text.getOffsetAtLine(index);
            int end = index + 1 < text.getLineCount() ? text.getOffsetAtLine(index + 1) - 1 : text.getCharCount();
            text.setSelection(start, end);
            text.setHorizontalIndex(0); // the selection's end scrolled the text sideways: the line from its start
            // a few lines of context above the call
            text.setTopIndex(Math.max(0, index - Math.max(3, visibleLines() / 3)));
        }
        text.redraw();
    }

    /** The file shown, or null. */
    public @Nullable Path file() {
        return file;
    }

    /** The highlighted line (1-based), -1 when none. */
    public int highlightedLine() {
        return line;
    }

    /** The text widget (tests read its selection). */
    public StyledText text() {
        return text;
    }

    private int visibleLines() {
        int h = text.getLineHeight();
        return h <= 0 ? 20 : text.getClientArea().height / h;
    }

    private int digits() {
        return Math.max(3, Integer.toString(text.getLineCount()).length());
    }

    private int numberWidth() {
        GC gc = new GC(text);
        try {
            return gc.textExtent("0".repeat(digits() + 2)).x;
        } finally {
            gc.dispose();
        }
    }

    private static Color theme(String id) {
        return PlatformUI.getWorkbench().getThemeManager().getCurrentTheme().getColorRegistry().get(id);
    }

    @Override
    public void setFocus() {
        text.setFocus();
    }
}
