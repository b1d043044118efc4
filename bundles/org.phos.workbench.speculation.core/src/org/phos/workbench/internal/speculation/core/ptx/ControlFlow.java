package org.phos.workbench.internal.speculation.core.ptx;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.phos.workbench.speculation.core.ptx.PtxOperand;
import org.phos.workbench.speculation.core.ptx.PtxStatement;
import org.phos.workbench.speculation.core.ptx.PtxStatement.Instruction;

/**
 * Basic blocks, edges and dominators of a function body, over its instruction list. Used to know which branch
 * conditions hold at an instruction: a condition on the edge B -> T holds in every block T dominates when B is T's only
 * predecessor.
 */
final class ControlFlow {

	final int[] blockOf;
	final List<int[]> blockRange = new ArrayList<>();
	final List<List<Integer>> successors = new ArrayList<>();
	final List<List<Integer>> predecessors = new ArrayList<>();
	final BitSet[] dominators;

	ControlFlow(List<PtxStatement> body, List<Instruction> instructions) {
		int n = instructions.size();
		blockOf = new int[n];
		Map<String, Integer> labelAt = new HashMap<>();
		BitSet leaders = new BitSet(n + 1);
		leaders.set(0);
		int index = 0;
		for (PtxStatement s : body) {
			if (s instanceof PtxStatement.Label label) {
				labelAt.put(label.name(), index);
				leaders.set(index);
			} else if (s instanceof Instruction ins) {
				String op = ins.baseOpcode();
				if (op.equals("bra") || op.equals("brx") || op.equals("ret") || op.equals("exit")) {
					leaders.set(index + 1);
				}
				index++;
			}
		}
		for (int start = 0; start < n; start = leaders.nextSetBit(start + 1)) {
			int end = Math.min(n, leaders.nextSetBit(start + 1));
			int b = blockRange.size();
			blockRange.add(new int[] { start, end });
			for (int i = start; i < end; i++) {
				blockOf[i] = b;
			}
			if (end >= n) {
				break;
			}
		}
		int blocks = blockRange.size();
		for (int b = 0; b < blocks; b++) {
			successors.add(new ArrayList<>());
			predecessors.add(new ArrayList<>());
		}
		for (int b = 0; b < blocks; b++) {
			Instruction last = instructions.get(blockRange.get(b)[1] - 1);
			String op = last.baseOpcode();
			boolean guarded = last.guard() != null;
			boolean fallsThrough = true;
			if (op.equals("bra")) {
				PtxOperand target = last.operands().isEmpty() ? null : last.operands().get(0);
				Integer t = target == null ? null : labelAt.get(target.toPtx());
				if (t != null && t < n) {
					addEdge(b, blockOf[t]);
				}
				fallsThrough = guarded;
			} else if (op.equals("brx")) {
				for (int t = 0; t < blocks; t++) {
					addEdge(b, t);
				}
				fallsThrough = guarded;
			} else if (op.equals("ret") || op.equals("exit")) {
				fallsThrough = guarded;
			}
			if (fallsThrough && b + 1 < blocks) {
				addEdge(b, b + 1);
			}
		}
		dominators = computeDominators(blocks);
	}

	private void addEdge(int from, int to) {
		if (!successors.get(from).contains(to)) {
			successors.get(from).add(to);
			predecessors.get(to).add(from);
		}
	}

	private BitSet[] computeDominators(int blocks) {
		BitSet[] dom = new BitSet[blocks];
		for (int b = 0; b < blocks; b++) {
			dom[b] = new BitSet(blocks);
			if (b == 0) {
				dom[b].set(0);
			} else {
				dom[b].set(0, blocks);
			}
		}
		boolean changed = true;
		while (changed) {
			changed = false;
			for (int b = 1; b < blocks; b++) {
				BitSet d = new BitSet(blocks);
				boolean first = true;
				for (int p : predecessors.get(b)) {
					if (first) {
						d.or(dom[p]);
						first = false;
					} else {
						d.and(dom[p]);
					}
				}
				if (first) {
					d.clear();
				}
				d.set(b);
				if (!d.equals(dom[b])) {
					dom[b] = d;
					changed = true;
				}
			}
		}
		return dom;
	}

	/** @return whether block {@code a} dominates block {@code b} */
	boolean dominates(int a, int b) {
		return dominators[b].get(a);
	}

	int lastInstruction(int block) {
		return blockRange.get(block)[1] - 1;
	}

	/** @return the block control reaches when the branch at the end of {@code block} is not taken, or -1 */
	int fallThrough(int block) {
		return block + 1 < blockRange.size() && successors.get(block).contains(block + 1) ? block + 1 : -1;
	}
}
