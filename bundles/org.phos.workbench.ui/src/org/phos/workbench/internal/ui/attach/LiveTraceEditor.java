package org.phos.workbench.internal.ui.attach;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.resource.ColorRegistry;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Label;
import org.eclipse.ui.IEditorInput;
import org.eclipse.ui.IEditorSite;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PartInitException;
import org.eclipse.ui.PlatformUI;
import org.phos.workbench.internal.ui.trace.ReadOnlyEditor;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.trace.TraceEditor;
import org.phos.workbench.internal.ui.trace.TraceOpening;
import org.phos.workbench.trace.core.attach.LiveStream;
import org.phos.workbench.trace.core.attach.LiveWindow;
import org.phos.workbench.trace.core.attach.StreamSaver;
import org.phos.workbench.ui.model.LiveTraces;
import org.phos.workbench.ui.model.LoadedTrace;
import org.phos.workbench.ui.model.ViewSelectionProvider;

/**
 * A live trace: follows a recording process over its attach socket. A reading Job takes the stream chunk by chunk
 * into a {@link StreamSaver} (everything received, as a {@code .phos} file) and a {@link LiveWindow} (the recent
 * events, bounded); a timer on the UI thread asks for a snapshot of the window when something arrived, which a Job
 * loads into an ordinary immutable trace and the editor publishes as the next {@link LoadedTrace} generation (its
 * selection, as a {@link TraceEditor} publishes its trace). The views see a new trace each time, and
 * {@link LiveTraces} tells them it is the same session, so they keep their place and follow the newest events.
 * <p>
 * Detach closes the connection only (the process goes on). When the process ends (closes its trace, or is killed)
 * the live trace ends: what was received stays, and if it fits in the window the editor hands over to an ordinary
 * {@link TraceEditor} on the saved stream; otherwise it offers the saved stream and the process's trace file.
 */
public final class LiveTraceEditor extends ReadOnlyEditor {
	/** The editor id in plugin.xml. */
	public static final String ID = "org.phos.workbench.ui.liveTraceEditor";
	/** Snapshots at most this often (ms); slower when a snapshot takes longer (twice its time). */
	static final int MIN_INTERVAL_MS = Integer.getInteger("phos.live.intervalMs", 100);

	private final ViewSelectionProvider selection = new ViewSelectionProvider();
	private Label status;
	private Label banner;
	private Button follow;
	private Button detach;
	private Button openSaved;
	private Button openTraceFile;
	private @Nullable LiveStream stream;
	private @Nullable LiveWindow window;
	private @Nullable Path saved;
	private @Nullable Path windowFile;
	private @Nullable Job reader;
	private @Nullable Job snapshotJob;
	private volatile boolean following = true;
	private volatile LiveWindow.@Nullable Snapshot last;
	private @Nullable LoadedTrace loaded;
	private long snapshotVersion = -1;
	private long lastSnapshotMs;
	/** i14-livebest: a snapshot's new events are being fed to the live engines (after its rows were published). */
	private volatile boolean speculating;
	private long generations;
	private boolean detached;
	private boolean ended;
	private volatile @Nullable String failure;
	// i14-incr: begin
	/** The live speculation and the session's generations of this live trace. */
	private final LiveAnalysis analysis = new LiveAnalysis();
	/** Where a person chose to keep the received stream (copied there when the stream ends), or null. */
	private volatile @Nullable Path keepTarget;
	private volatile @Nullable Path kept;
	private Button keep;
	// i14-incr: end
	private @Nullable CheckpointPanel checkpoints; // i14-ckpt
	// i14-jsites: begin
	/** The Java call sites the JCuda agent of the process writes (its side file, followed); guarded by itself. */
	private final Object javaSitesLock = new Object();
	private volatile org.phos.workbench.trace.core.attach.@Nullable LiveJavaSites javaSites;
	private final long attachedNs = System.nanoTime();
	/** One line for the status: where the Java call sites come from, and how many launches have one. */
	private volatile String javaSitesNote = "";
	// i14-jsites: end
	// i14-liveacc: begin
	private @Nullable LiveAccuracyPanel accuracyPanel;
	private volatile org.phos.workbench.analysis.core.LiveAccuracy.@Nullable Figures figures;
	// i14-liveacc: end

	private final LiveTraces.Session session = new LiveTraces.Session() {
		@Override
		public boolean following() {
			return following;
		}

		@Override
		public void setFollowing(boolean on) {
			following = on;
			Display d = status.getDisplay();
			d.asyncExec(() -> {
				if (!follow.isDisposed()) {
					follow.setSelection(on);
				}
			});
		}

		@Override
		public String note() {
			LiveWindow.Snapshot s = last;
			if (s == null) {
				return "";
			}
			String state = ended ? (s.closedCleanly() ? "ended" : "ended (killed)") : detached ? "detached" : "live";
			String older = s.dropped() == 0 ? ""
					: String.format(Locale.ROOT, "; %,d older events are not kept here: they are in %s", s.dropped(),
							s.tracePath().isEmpty() ? "the process's trace file" : s.tracePath());
			return String.format(Locale.ROOT, "%s, process %d: %,d events received%s", state, input().process().pid(),
					s.received(), older);
		}

		// i14-incr: begin
		@Override
		public @Nullable Path olderEventsFile() {
			LiveWindow.Snapshot s = last;
			if (s == null || s.dropped() == 0) {
				return null;
			}
			Path p = Path.of(s.tracePath().isEmpty() ? input().process().tracePath() : s.tracePath());
			return Files.isRegularFile(p) ? p : null;
		}

		@Override
		public void openOlderEvents() {
			openFile(olderEventsFile());
		}
		// i14-incr: end
		@Override
		public java.util.List<LiveTraces.Mark> marks() { // i14-ckpt: the driver checkpoint's phases on the timelines
			CheckpointPanel c = checkpoints;
			return c == null ? java.util.List.of() : c.marks();
		}
	};

	@Override
	public void init(IEditorSite site, IEditorInput in) throws PartInitException {
		if (!(in instanceof LiveTraceInput)) {
			throw new PartInitException("Not a live process: " + in.getName());
		}
		setSite(site);
		setInput(in);
		setPartName(in.getName());
		setTitleToolTip(in.getToolTipText());
		site.setSelectionProvider(selection);
	}

	LiveTraceInput input() {
		return (LiveTraceInput) getEditorInput();
	}

	@Override
	public void createPartControl(Composite editorArea) {
		// the sections scroll together when the editor is shorter than they are (the default layout gives it about
		// 330 px: the accuracy table was squeezed to two engines and the status lines hidden)
		editorArea.setLayout(new org.eclipse.swt.layout.FillLayout());
		org.eclipse.swt.custom.ScrolledComposite scroll = new org.eclipse.swt.custom.ScrolledComposite(editorArea,
				SWT.V_SCROLL);
		scroll.setExpandHorizontal(true);
		scroll.setExpandVertical(true);
		Composite parent = new Composite(scroll, SWT.NONE);
		org.eclipse.swt.layout.GridLayout grid = new org.eclipse.swt.layout.GridLayout();
		grid.marginWidth = grid.marginHeight = 6;
		grid.horizontalSpacing = grid.verticalSpacing = 4;
		parent.setLayout(grid);
		scroll.setContent(parent);
		scroll.addListener(SWT.Resize, e -> fitScroll(scroll, parent));
		scroll.setData(TracesView.ROLE, "liveScroll");
		banner = new Label(parent, SWT.WRAP);
		banner.setData(TracesView.ROLE, "banner");
		ColorRegistry colors = PlatformUI.getWorkbench().getThemeManager().getCurrentTheme().getColorRegistry();
		banner.setBackground(colors.get(TraceEditor.WARNING_BACKGROUND));
		GridDataFactory.fillDefaults().grab(true, false).exclude(true).applyTo(banner);
		banner.setVisible(false);
		Composite bar = new Composite(parent, SWT.NONE);
		org.eclipse.swt.layout.RowLayout row = new org.eclipse.swt.layout.RowLayout(SWT.HORIZONTAL);
		row.wrap = true; // a narrow editor puts the buttons on a second line instead of clipping them
		row.center = true;
		row.marginLeft = row.marginRight = row.marginTop = row.marginBottom = 0;
		bar.setLayout(row);
		GridDataFactory.fillDefaults().grab(true, false).applyTo(bar);
		follow = new Button(bar, SWT.CHECK);
		follow.setText("&Follow the newest events");
		follow.setToolTipText("Keep the newest launches in sight in the Launches table and the Trace Timeline "
				+ "(scrolling back turns it off)");
		follow.setData(TracesView.ROLE, "follow");
		follow.setSelection(true);
		follow.addListener(SWT.Selection, e -> following = follow.getSelection());
		detach = new Button(bar, SWT.PUSH);
		detach.setText("&Detach");
		detach.setToolTipText("Stop reading the process's stream; the process goes on untouched");
		detach.setData(TracesView.ROLE, "detach");
		detach.addListener(SWT.Selection, e -> detach());
		openSaved = new Button(bar, SWT.PUSH);
		openSaved.setText("Open &received stream");
		openSaved.setToolTipText("Open everything received since attaching as an ordinary trace");
		openSaved.setData(TracesView.ROLE, "openSaved");
		openSaved.addListener(SWT.Selection, e -> openFile(saved));
		openTraceFile = new Button(bar, SWT.PUSH);
		openTraceFile.setText("Open the process's &trace file");
		openTraceFile.setToolTipText(input().process().tracePath());
		openTraceFile.setData(TracesView.ROLE, "openTraceFile");
		openTraceFile.addListener(SWT.Selection, e -> openFile(Path.of(input().process().tracePath())));
		openTraceFile.setEnabled(Files.isRegularFile(Path.of(input().process().tracePath())));
		// i14-incr: begin
		keep = new Button(bar, SWT.PUSH);
		keep.setText("&Keep received stream…");
		keep.setToolTipText("The received stream is a temporary file, deleted when this live trace closes: keep a copy "
				+ "of it (made when the stream ends)");
		keep.setData(TracesView.ROLE, "keepReceived");
		keep.addListener(SWT.Selection, e -> {
			org.eclipse.swt.widgets.FileDialog d = new org.eclipse.swt.widgets.FileDialog(keep.getShell(), SWT.SAVE);
			d.setFilterExtensions(new String[] { "*.phos" });
			d.setFileName("process-" + input().process().pid() + ".phos");
			d.setOverwrite(true);
			String chosen = d.open();
			if (chosen != null) {
				keepAs(Path.of(chosen));
			}
		});
		// i14-incr: end
		checkpoints = new CheckpointPanel(parent, input().process().pid()); // i14-ckpt: the driver checkpoint section
		accuracyPanel = new LiveAccuracyPanel(parent); // i14-liveacc: the engines judged as the truth arrives
		status = new Label(parent, SWT.WRAP);
		status.setData(TracesView.ROLE, "liveStatus");
		GridDataFactory.fillDefaults().grab(true, true).applyTo(status);
		status.setText("Attaching to process " + input().process().pid() + " …");
		// a section that grows (a checkpoint message, the accuracy rows) is laid out anew, which resizes it or the
		// status lines below: then the scroll gets the new height
		for (org.eclipse.swt.widgets.Control section : parent.getChildren()) {
			section.addListener(SWT.Resize, e -> fitScroll(scroll, parent));
		}
		start();
	}

	/** The height the sections need at the scroll's width; the scroll bar appears when the editor is shorter. */
	private static void fitScroll(org.eclipse.swt.custom.ScrolledComposite scroll, Composite content) {
		int width = scroll.getClientArea().width;
		if (width > 0) {
			scroll.setMinHeight(content.computeSize(width, SWT.DEFAULT).y); // (returns at once when unchanged)
		}
	}

	private void start() {
		LiveTraceInput in = input();
		try {
			Path dir = ReceivedStreams.directory(); // i14-incr: temporary, see ReceivedStreams
			String stem = in.process().pid() + "-" + System.currentTimeMillis();
			saved = dir.resolve(stem + ".received.phos");
			windowFile = dir.resolve(stem + ".window.phos");
		} catch (IOException e) {
			fail("Cannot create the folder for the received stream: " + e.getMessage());
			return;
		}
		LiveWindow w = new LiveWindow(in.window());
		// i14-livebest: live speculation feeds every event once: what a burst brings between two snapshots waits for one
		w.keepUntilSnapshot(LiveAnalysis.ENABLED ? Math.max(in.window(), 1 << 18) : 0);
		window = w;
		Display display = status.getDisplay();
		Path savedFile = saved;
		Job job = Job.create("Reading the live stream of process " + in.process().pid(), (IProgressMonitor m) -> {
			try (LiveStream s = LiveStream.open(in.directory(), in.process().pid());
					StreamSaver saver = new StreamSaver(savedFile)) {
				stream = s;
				LiveStream.StreamChunk c;
				while ((c = s.next()) != null) {
					saver.chunk(c);
					w.accept(c);
				}
			} catch (IOException | RuntimeException e) {
				failure = e.getMessage() == null ? e.toString() : e.getMessage();
			} finally {
				closeJavaSites(); // i14-jsites: the last lines, copied next to the received stream
				keepIfAsked(); // i14-incr
				w.markEnded();
				display.asyncExec(this::tick);
			}
			return Status.OK_STATUS;
		});
		job.setSystem(true);
		reader = job;
		job.schedule();
		display.timerExec(MIN_INTERVAL_MS, this::tick);
	}

	/** On the UI thread: asks for the next snapshot when something arrived and none is being made. */
	private void tick() {
		if (status.isDisposed()) {
			return;
		}
		LiveWindow w = window;
		if (w == null) {
			return;
		}
		boolean done = ended;
		// i14-livebest: no next snapshot while the engines are still fed the last one's events: a generation waiting
		// for them would hold its window, and a stream the engines cannot keep up with would pile them up
		if (snapshotJob == null && !speculating && !done) {
			long v = w.version();
			if ((v != snapshotVersion || javaSitesGrew()) && w.started()) { // i14-jsites: or the agent wrote
				snapshot(w, v);
			} else if (v == snapshotVersion && isStreamOver()) {
				ended();
				return;
			} else if (!w.started() && isStreamOver()) {
				fail("Process " + input().process().pid() + ": " + (failure == null ? "the stream ended before its "
						+ "header" : failure));
				return;
			}
		}
		if (!ended) {
			status.getDisplay().timerExec((int) Math.max(MIN_INTERVAL_MS, 2 * lastSnapshotMs), this::tick);
		}
	}

	private boolean isStreamOver() {
		Job r = reader;
		return r != null && r.getState() == Job.NONE;
	}

	private void snapshot(LiveWindow w, long version) {
		Path file = windowFile;
		Path name = saved;
		if (file == null || name == null) {
			return;
		}
		Display display = status.getDisplay();
		Job job = Job.create("Snapshot of process " + input().process().pid(), (IProgressMonitor m) -> {
			long t0 = System.nanoTime();
			try {
				LiveWindow.Snapshot s = w.snapshot(file, m);
				pairJavaSites(s); // i14-jsites: before the views see the generation
				// i14-livebest: the pace follows the snapshot's own cost (writing and loading the window, which a longer
				// interval amortizes), not the speculation's, which is per new event: counting it made the interval,
				// hence the next generation's new events, hence its speculation, grow together
				lastSnapshotMs = (System.nanoTime() - t0) / 1_000_000;
				// i14-livebest: the rows first, then their speculation (the new events, once): a person sees a launch
				// as soon as the snapshot is loaded, and the speculated column of the new rows fills when the engines
				// are done (LiveTraces.published again: the views repaint that generation's rows)
				speculating = true;
				display.asyncExec(() -> publish(s, version));
				try {
					analysis.speculate(s, m); // i14-incr: the new launches, once
					figures = analysis.judge(s, m); // i14-liveacc: when new truth arrived
				} finally {
					speculating = false;
				}
				display.asyncExec(() -> {
					LoadedTrace shown = loaded;
					if (shown != null && shown.trace() == s.loaded().trace() && !status.isDisposed()) {
						LiveTraces.published(shown);
						showAccuracy(shown); // i14-liveacc: the figures of this generation, judged after its rows
						status.setText(statusText(s)); // the speculation line counts this generation's launches now
					}
				});
			} catch (OperationCanceledException e) {
				return Status.CANCEL_STATUS;
			} catch (IOException | RuntimeException e) {
				String why = "Cannot take a snapshot of the stream: " + e.getMessage();
				display.asyncExec(() -> {
					snapshotJob = null;
					fail(why);
				});
				return Status.OK_STATUS;
			}
			return Status.OK_STATUS;
		});
		job.setSystem(true);
		job.setPriority(Job.INTERACTIVE);
		snapshotJob = job;
		job.schedule();
	}

	private void publish(LiveWindow.Snapshot s, long version) {
		snapshotJob = null;
		if (status.isDisposed()) {
			return;
		}
		snapshotVersion = version;
		last = s;
		generations++;
		Path name = saved;
		LoadedTrace previous = loaded;
		LoadedTrace t = new LoadedTrace(name == null ? Path.of("live.phos") : name, s.loaded().trace(),
				s.loaded().warnings(), s.loaded().anomalies());
		LiveTraces.register(t, session);
		analysis.published(this, t, s); // i14-incr: the session answers about the newest generations only
		loaded = t;
		status.setText(statusText(s));
		selection.setSelection(new StructuredSelection(t));
		LiveTraces.published(t);
		showAccuracy(t); // i14-liveacc
		if (previous != null) {
			Job.getJobManager().cancel(previous); // the views' work on the older generation
		}
		tick();
	}

	private String statusText(LiveWindow.Snapshot s) {
		var tr = s.loaded().trace();
		return String.format(Locale.ROOT,
				"%s%nLaunches in the views: %,d (events %,d, window %,d); missed by this reader: %,d; snapshot %,d "
						+ "took %d ms.%nReceived stream: %s",
				session.note(), tr.launchCount(), tr.eventCount(), input().window(), s.missed(), generations,
				lastSnapshotMs, saved) + "\n" + analysis.status() // i14-incr
				+ (javaSitesNote.isEmpty() ? "" : "\n" + javaSitesNote); // i14-jsites
	}

	/** The stream ended (the process exited or was killed, or Detach): the last snapshot stays. */
	private void ended() {
		ended = true;
		detach.setEnabled(false);
		if (checkpoints != null) { // i14-ckpt
			checkpoints.processEnded();
		}
		LiveWindow.Snapshot s = last;
		String pid = Long.toString(input().process().pid());
		String why;
		if (detached) {
			why = "Detached from process " + pid + "; it goes on recording (its trace file has everything).";
		} else if (s != null && s.closedCleanly()) {
			why = "Process " + pid + " ended and closed its trace.";
		} else {
			why = "Process " + pid + " ended without closing its trace (killed?): the stream stopped after its last "
					+ "whole chunk" + (failure == null ? "" : " (" + failure + ")") + ".";
		}
		long received = s == null ? 0 : s.received();
		showBanner(why + String.format(Locale.ROOT, " %,d events received are kept in %s.", received, saved));
		if (s != null) {
			status.setText(statusText(s));
		}
		// everything received fits in the window: hand over to an ordinary trace editor on the received stream
		if (s != null && s.dropped() == 0 && !detached && saved != null
				&& Boolean.parseBoolean(System.getProperty("phos.live.reopen", "true"))) {
			IWorkbenchPage page = getSite().getPage();
			Path file = kept != null ? kept : saved; // i14-incr: the kept copy when there is one
			status.getDisplay().asyncExec(() -> {
				if (TraceOpening.open(page, java.util.List.of(file)).isEmpty()) {
					page.closeEditor(this, false);
				}
			});
		}
	}

	// i14-liveacc: begin
	private org.phos.workbench.analysis.core.LiveAccuracy.@Nullable Figures accuracyShown;

	/**
	 * New figures: the section shows them, and an open Accuracy view that shows this live trace (or nothing yet)
	 * follows to the generation they judge (it validates it with its own engine choice).
	 */
	private void showAccuracy(LoadedTrace generation) {
		var f = figures;
		LiveAccuracyPanel p = accuracyPanel;
		if (f == null || f == accuracyShown || p == null) {
			return;
		}
		accuracyShown = f;
		p.show(f);
		if (getSite().getPage().findView(org.phos.workbench.internal.ui.accuracy.AccuracyView.ID)
				instanceof org.phos.workbench.internal.ui.accuracy.AccuracyView v
				&& (v.trace() == null || LiveTraces.sameSession(v.trace(), generation))) {
			v.show(generation);
		}
	}

	/** The live accuracy section (tests). */
	public @Nullable LiveAccuracyPanel accuracyPanel() {
		return accuracyPanel;
	}
	// i14-liveacc: end

	/** Stops reading the process's stream; the process is not touched. */
	public void detach() {
		detached = true;
		LiveStream s = stream;
		if (s != null) {
			s.close();
		}
	}

	private void openFile(@Nullable Path file) {
		if (file == null) {
			return;
		}
		java.util.List<String> problems = TraceOpening.open(getSite().getPage(), java.util.List.of(file));
		if (!problems.isEmpty()) {
			showBanner(String.join("\n", problems));
		}
	}

	private void fail(String message) {
		ended = true;
		if (!status.isDisposed()) {
			detach.setEnabled(false);
			showBanner(message);
			status.setText("");
		}
	}

	private void showBanner(String text) {
		banner.setText(text);
		banner.setVisible(true);
		((org.eclipse.swt.layout.GridData) banner.getLayoutData()).exclude = false;
		banner.getParent().layout(true);
	}

	/** The banner's text (empty while live and well). */
	public String bannerText() {
		return banner.isVisible() ? banner.getText() : "";
	}

	/** The status text (what the views hold, the window, the received stream). */
	public String statusText() {
		return status.getText();
	}

	/** The newest generation, or null before the first snapshot. */
	public @Nullable LoadedTrace loadedTrace() {
		return loaded;
	}

	/** The newest snapshot, or null. */
	public LiveWindow.@Nullable Snapshot lastSnapshot() {
		return last;
	}

	/** Whether the live trace has ended (process ended, detached, or failed). */
	public boolean isEnded() {
		return ended;
	}

	// i14-ckpt: begin
	/** The driver checkpoint section (state machine, phases, refusals); null before the editor's controls exist. */
	public @Nullable CheckpointPanel checkpointPanel() {
		return checkpoints;
	}
	// i14-ckpt: end

	/** The file everything received is saved to. */
	public @Nullable Path receivedFile() {
		return saved;
	}

	public boolean following() {
		return following;
	}

	@Override
	public void dispose() {
		detach();
		Job j = snapshotJob;
		if (j != null) {
			j.cancel();
		}
		LoadedTrace t = loaded;
		if (t != null) {
			Job.getJobManager().cancel(t);
		}
		// i14-incr: begin
		analysis.close(this);
		Path received = saved;
		if (received != null && keepTarget != null && kept == null) {
			ReceivedStreams.deleteAtExit(received); // the reader still copies it where the person wanted it kept
		} else if (received != null) {
			ReceivedStreams.closed(received, getSite().getPage());
		}
		// i14-incr: end
		Path f = windowFile;
		if (f != null) {
			try {
				Files.deleteIfExists(f);
			} catch (IOException e) {
				// a temporary file: the next session overwrites nothing of it
			}
		}
		super.dispose();
	}

	// i14-jsites: begin
	/**
	 * Pairs the snapshot's events with the Java calls the process's JCuda agent wrote to the side file next to its
	 * trace (followed: only the new lines are read), and gives them to the analysis session, so the Launches view's
	 * Java site column fills as launches arrive. The side file's lines are also copied next to the received stream,
	 * so that it opens with its sites.
	 */
	private void pairJavaSites(LiveWindow.Snapshot s) {
		synchronized (javaSitesLock) {
			org.phos.workbench.trace.core.attach.LiveJavaSites js = javaSites;
			if (js == null) {
				String trace = s.tracePath().isEmpty() ? input().process().tracePath() : s.tracePath();
				if (trace.isEmpty()) {
					return;
				}
				js = new org.phos.workbench.trace.core.attach.LiveJavaSites(
						org.phos.workbench.trace.core.attach.LiveJavaSites.sideFileOf(trace, input().process().pid()),
						input().window());
				javaSites = js;
			}
			Path received = saved;
			try {
				if (received != null && js.savedSideFile() == null && Files.isRegularFile(js.file())) {
					js.saveNextTo(received, attachedNs - 1_000_000_000L);
				}
			} catch (IOException e) {
				org.eclipse.core.runtime.ILog.of(LiveTraceEditor.class).warn("cannot copy the Java call sites next to "
						+ received + ": " + e.getMessage());
			}
			var sites = js.update(s);
			if (sites != null) {
				org.phos.workbench.internal.ui.launches.Analysis.session().javaSites(s.loaded().trace(), sites);
			}
			javaSitesNote = sites != null
					? String.format(Locale.ROOT, "Java call sites: %,d launches received have one (JCuda agent, %s)%s",
							js.pairedLaunches(), js.file(), js.problem() == null ? "" : "; " + js.problem())
					: "Java call sites: none (no " + js.file() + ": the program runs without the JCuda agent, or it has "
							+ "not written yet)";
		}
	}

	/**
	 * Whether the agent wrote calls since the last snapshot while the stream brought nothing new (the agent writes up
	 * to 200 ms after the recorder's batch): then the views need one more generation to show the launches' sites.
	 */
	private boolean javaSitesGrew() {
		org.phos.workbench.trace.core.attach.LiveJavaSites js = javaSites;
		return js != null && !isStreamOver() && js.hasNew();
	}

	private void closeJavaSites() {
		synchronized (javaSitesLock) {
			org.phos.workbench.trace.core.attach.LiveJavaSites js = javaSites;
			if (js != null) {
				js.close();
			}
		}
	}

	/** The side file of Java call sites this live trace follows, or null before the first snapshot. */
	public @Nullable Path javaSitesFile() {
		synchronized (javaSitesLock) {
			return javaSites == null ? null : javaSites.file();
		}
	}
	// i14-jsites: end

	// i14-incr: begin
	/**
	 * Keeps the received stream at {@code target}: copied there when the stream ends (now, if it has), and that copy
	 * is what opens when the live trace hands over to an ordinary trace.
	 */
	public void keepAs(Path target) {
		keepTarget = target.toAbsolutePath().normalize();
		if (isStreamOver()) {
			keepIfAsked();
		} else {
			keep.setToolTipText("Kept as " + keepTarget + " when the stream ends");
		}
	}

	/** The kept copy of the received stream, once made; null before or when none was asked. */
	public @Nullable Path keptFile() {
		return kept;
	}

	private void keepIfAsked() {
		Path target = keepTarget;
		Path from = saved;
		if (target == null || from == null || target.equals(kept)) {
			return;
		}
		try {
			ReceivedStreams.keep(from, target);
			kept = target;
		} catch (IOException e) {
			failure = "cannot keep the received stream as " + target + ": " + e.getMessage();
		}
	}

	/** The live speculation of this live trace (tests, benchmarks). */
	public org.phos.workbench.analysis.core.LiveSpeculation liveSpeculation() {
		return analysis.speculation();
	}
	// i14-incr: end

	@Override
	public void setFocus() {
		follow.setFocus();
	}
}
