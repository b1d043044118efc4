package org.phos.workbench.internal.ui.launches;

import java.util.Comparator;
import java.util.List;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.core.runtime.SubMonitor;
import org.phos.workbench.analysis.core.AnalysisSession;
import org.phos.workbench.analysis.core.LaunchQuery;
import org.phos.workbench.analysis.core.LaunchRow;

/**
 * Where a launch is among a {@link LaunchQuery}'s rows, without listing them all: "go to launch N" and a
 * {@code LaunchSelection} from another view must find N's row in a table of 10 million.
 * <p>
 * The analysis layer sorts by one key and keeps launch order for ties, so the rows are ordered by (key, launch) and
 * a binary search over single-row pages finds N in about 2 log2(rows) row reads. Whether N passes the filter at all
 * is decided first by a binary search over the same filter in launch order (the key is then the launch itself, so
 * that answer does not depend on mirroring the sort keys here). If the sorted search still misses N (a key this class
 * reads differently from the layer), the rows are scanned page by page: slower, never wrong.
 */
final class LaunchLocator {
    private static final int SCAN_PAGE = 4096;

    private LaunchLocator() {
    }

    /**
     * @return the row of {@code launch} among {@code query}'s rows (its page ignored), or -1 when the filter hides it
     */
    static int row(AnalysisSession session, LaunchQuery query, int launch, IProgressMonitor monitor) {
        SubMonitor progress = SubMonitor.convert(monitor, "Finding launch " + launch, 3);
        LaunchQuery inLaunchOrder = new LaunchQuery(query.trace(), query.filter(), LaunchQuery.Sort.LAUNCH_ORDER,
                query.verdictEngine(), query.tool(), 0, 0);
        int total = (int) session.launches(inLaunchOrder.withPage(0, 0), progress.split(1)).total();
        LaunchRow target = launchRow(session, query, launch);
        int position = search(session, inLaunchOrder, total, Comparator.comparingInt(LaunchRow::launch), target,
                monitor);
        if (position < 0) {
            return -1;
        }
        LaunchQuery.Sort sort = query.sort();
        if (sort.equals(LaunchQuery.Sort.LAUNCH_ORDER)) {
            return position;
        }
        if ((sort.column().equals("launch") || sort.column().equals("event")) && sort.descending()) {
            return total - 1 - position;
        }
        Comparator<LaunchRow> order = order(sort);
        int found = search(session, query, total, order, target, monitor);
        progress.split(1);
        if (found >= 0) {
            return found;
        }
        return scan(session, query, total, launch, progress.split(1));
    }

    /** The row at {@code position}. */
    private static LaunchRow rowAt(AnalysisSession session, LaunchQuery query, int position) {
        List<LaunchRow> rows = session.launches(query.withPage(position, 1), null).rows();
        if (rows.isEmpty()) {
            throw new IllegalStateException("no row " + position);
        }
        return rows.get(0);
    }

    /** The row of {@code launch} among the launches of an unfiltered query, in launch order. */
    private static LaunchRow launchRow(AnalysisSession session, LaunchQuery query, int launch) {
        // the unfiltered launch-order page of one row is launch itself: its key fields come from the trace
        LaunchQuery all = new LaunchQuery(query.trace(), LaunchQuery.Filter.ALL, LaunchQuery.Sort.LAUNCH_ORDER,
                query.verdictEngine(), query.tool(), 0, 0);
        return rowAt(session, all, launch);
    }

    /** Binary search of {@code target} among rows ordered by {@code order} (then launch); -1 when absent. */
    private static int search(AnalysisSession session, LaunchQuery query, int total, Comparator<LaunchRow> order,
            LaunchRow target, IProgressMonitor monitor) {
        Comparator<LaunchRow> full = order.thenComparingInt(LaunchRow::launch);
        int lo = 0;
        int hi = total - 1;
        while (lo <= hi) {
            if (monitor.isCanceled()) {
                throw new OperationCanceledException();
            }
            int mid = (lo + hi) >>> 1;
            LaunchRow r = rowAt(session, query, mid);
            int c = full.compare(r, target);
            if (c == 0 || r.launch() == target.launch()) {
                return r.launch() == target.launch() ? mid : -1;
            }
            if (c < 0) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return -1;
    }

    /** The order {@link LaunchQuery.Sort} puts rows in, by the row's fields, before ties in launch order. */
    static Comparator<LaunchRow> order(LaunchQuery.Sort sort) {
        Comparator<LaunchRow> key = switch (sort.column()) {
        case "launch", "event" -> Comparator.comparingInt(LaunchRow::launch);
        case "host_ns" -> Comparator.comparingLong(LaunchRow::hostNs);
        case "gpu_start_ns" -> Comparator.comparingLong(LaunchRow::gpuStartNs);
        case "gpu_end_ns" -> Comparator.comparingLong(LaunchRow::gpuEndNs);
        case "gpu_ns" -> Comparator.comparingLong(LaunchRow::gpuNs);
        case "stream" -> (a, b) -> Long.compareUnsigned(a.stream(), b.stream());
        case "function" -> Comparator.comparingInt(LaunchRow::functionId);
        case "kernel" -> Comparator.comparing(LaunchRow::kernel).thenComparingInt(LaunchRow::functionId);
        case "verdict" -> Comparator.comparingInt(r -> r.verdict() == null ? 0 : r.verdict().ordinal());
        default -> throw new IllegalArgumentException(sort.column());
        };
        return sort.descending() ? key.reversed() : key;
    }

    /** Reads the rows a page at a time until {@code launch} is found. */
    private static int scan(AnalysisSession session, LaunchQuery query, int total, int launch,
            IProgressMonitor monitor) {
        SubMonitor progress = SubMonitor.convert(monitor, (total + SCAN_PAGE - 1) / SCAN_PAGE);
        for (int offset = 0; offset < total; offset += SCAN_PAGE) {
            List<LaunchRow> rows = session.launches(query.withPage(offset, SCAN_PAGE), progress.split(1)).rows();
            for (int i = 0; i < rows.size(); i++) {
                if (rows.get(i).launch() == launch) {
                    return offset + i;
                }
            }
        }
        return -1;
    }
}
