package org.phos.workbench.live;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.phos.workbench.cr.core.BufferRange;
import org.phos.workbench.cr.core.Operation;
import org.phos.workbench.cr.core.OperationKind;
import org.phos.workbench.cr.core.SimulationWorkload;

/**
 * A planted mis-speculation: the workload as given, except that launch number {@code launch} (counting launches
 * from 0) loses the first buffer of its speculated write set, while its true writes (observed, or, without
 * observations, the original speculated ones) stay what it really writes. A correct live engine catches the write
 * by validation and still produces a right image.
 */
public final class MisSpeculation implements SimulationWorkload {
	private final SimulationWorkload base;
	private final long launch;
	private final boolean fromThenOn;

	public MisSpeculation(SimulationWorkload base, long launch) {
		this(base, launch, false);
	}

	/**
	 * @param fromThenOn the removed buffer leaves the speculated writes of every later launch too (a kernel whose
	 *        speculation never sees that write): what a soft recopy's dirty set misses without validation, where a
	 *        later launch writing the buffer inside the sets would otherwise make it dirty anyway
	 */
	public MisSpeculation(SimulationWorkload base, long launch, boolean fromThenOn) {
		this.base = base;
		this.launch = launch;
		this.fromThenOn = fromThenOn;
	}

	/**
	 * The first launch at or after launch number {@code from} whose speculated write set starts with a buffer of
	 * {@code live} (the snapshot's buffers, so that removing it is a mis-speculation the checkpoint must catch), or -1.
	 */
	public static long firstWritingLaunch(SimulationWorkload w, long from, java.util.Set<Integer> live) {
		long n = 0;
		for (Iterator<Operation> it = w.operations(); it.hasNext();) {
			Operation op = it.next();
			if (op.kind() == OperationKind.LAUNCH) {
				if (n >= from && !op.writes().isEmpty() && live.contains(op.writes().get(0).buffer())) {
					return n;
				}
				n++;
			}
		}
		return -1;
	}

	@Override
	public String name() {
		return base.name() + " (write removed from launch " + launch + (fromThenOn ? " on" : "") + ")";
	}

	@Override
	public long sizeHint() {
		return base.sizeHint();
	}

	@Override
	public Iterator<Operation> operations() {
		Iterator<Operation> it = base.operations();
		return new Iterator<>() {
			long launches;
			int removedBuffer = -1;

			@Override
			public boolean hasNext() {
				return it.hasNext();
			}

			@Override
			public Operation next() {
				Operation op = it.next();
				if (op.kind() != OperationKind.LAUNCH) {
					return op;
				}
				long n = launches++;
				int removed;
				if (n == launch && !op.writes().isEmpty()) {
					removed = op.writes().get(0).buffer();
					removedBuffer = removed;
				} else if (fromThenOn && n > launch && removedBuffer >= 0
						&& op.writes().stream().anyMatch(w -> w.buffer() == removedBuffer)) {
					removed = removedBuffer;
				} else {
					return op;
				}
				List<BufferRange> writes = new ArrayList<>();
				for (BufferRange w : op.writes()) {
					if (w.buffer() != removed) {
						writes.add(w);
					}
				}
				List<BufferRange> truth = op.observedWrites() != null ? op.observedWrites() : op.writes();
				List<BufferRange> truthReads = op.observedReads() != null ? op.observedReads() : op.reads();
				return new Operation(op.index(), op.kind(), op.stream(), op.hostTimeNs(), op.gpuDurationNs(),
						op.bytes(), op.direction(), op.blocking(), op.buffer(), op.address(), op.event(), op.reads(),
						writes, truthReads, truth, op.label());
			}
		};
	}
}
