package org.phos.workbench.internal.speculation.core.instrument;

import org.phos.workbench.speculation.core.instrument.AccessTableLayout;

/**
 * The PTX of the access table and of the record routine every instrumented access calls.
 * <p>
 * {@code __phos_record(addr, info)} with {@code info = size << 3 | kind}: a generic address ({@code kind & 4}) that
 * {@code isspacep.global} rejects is dropped; otherwise a binary search over the table's sorted ranges finds the
 * slot ({@code lo} = number of bases &le; addr, candidate {@code lo - 1}, overflow slot when none contains the
 * address), and {@code red.global.min/max/add.u64} reduce {@code [addr, addr + size)} and the count into the read
 * and/or write fields. About 14 registers; called through the ABI, so a kernel gains one 64-bit and one 32-bit
 * register of its own.
 */
final class RecordRoutine {

	private RecordRoutine() {
	}

	/** @return the {@code .global} table declaration */
	static String table(AccessTableLayout layout) {
		return ".visible .global .align 8 .u64 " + AccessTableLayout.SYMBOL + "[" + layout.words() + "];";
	}

	/** @return the record routine's {@code .func} definition */
	static String function(AccessTableLayout layout) {
		long sb = layout.slotOffset(0);
		String t = AccessTableLayout.SYMBOL;
		return """
				.func __phos_record(
					.param .b64 __phos_record_addr,
					.param .b32 __phos_record_info
				)
				{
					.reg .pred %p<3>;
					.reg .b32 %r<4>;
					.reg .b64 %rd<12>;
					ld.param.u64 %rd1, [__phos_record_addr];
					ld.param.u32 %r1, [__phos_record_info];
					and.b32 %r2, %r1, 4;
					setp.eq.u32 %p1, %r2, 0;
					@%p1 bra $Lphos_global;
					isspacep.global %p2, %rd1;
					@!%p2 bra $Lphos_done;
				$Lphos_global:
					mov.u64 %rd2, TABLE;
					ld.global.u64 %rd3, [%rd2];
					mov.u64 %rd4, 0;
					mov.u64 %rd5, %rd3;
				$Lphos_search:
					setp.ge.u64 %p1, %rd4, %rd5;
					@%p1 bra $Lphos_found;
					add.u64 %rd6, %rd4, %rd5;
					shr.u64 %rd6, %rd6, 1;
					shl.b64 %rd7, %rd6, 4;
					add.u64 %rd7, %rd2, %rd7;
					ld.global.u64 %rd8, [%rd7+16];
					setp.lt.u64 %p1, %rd1, %rd8;
					@%p1 mov.u64 %rd5, %rd6;
					@!%p1 add.u64 %rd4, %rd6, 1;
					bra $Lphos_search;
				$Lphos_found:
					mov.u64 %rd9, OVERFLOW;
					setp.eq.u64 %p1, %rd4, 0;
					@%p1 bra $Lphos_slot;
					shl.b64 %rd7, %rd4, 4;
					add.u64 %rd7, %rd2, %rd7;
					ld.global.u64 %rd8, [%rd7+8];
					setp.lt.u64 %p1, %rd1, %rd8;
					@%p1 sub.u64 %rd9, %rd4, 1;
				$Lphos_slot:
					shl.b64 %rd10, %rd9, 6;
					add.u64 %rd10, %rd2, %rd10;
					shr.u32 %r3, %r1, 3;
					cvt.u64.u32 %rd11, %r3;
					add.u64 %rd11, %rd1, %rd11;
					and.b32 %r2, %r1, 1;
					setp.ne.u32 %p1, %r2, 0;
					@%p1 red.global.min.u64 [%rd10+RMIN], %rd1;
					@%p1 red.global.max.u64 [%rd10+REND], %rd11;
					@%p1 red.global.add.u64 [%rd10+RCNT], 1;
					and.b32 %r2, %r1, 2;
					setp.ne.u32 %p1, %r2, 0;
					@%p1 red.global.min.u64 [%rd10+WMIN], %rd1;
					@%p1 red.global.max.u64 [%rd10+WEND], %rd11;
					@%p1 red.global.add.u64 [%rd10+WCNT], 1;
				$Lphos_done:
					ret;
				}
				""".replace("TABLE", t).replace("OVERFLOW", Integer.toString(layout.overflowSlot()))
				.replace("RMIN", Long.toString(sb + 8 * AccessTableLayout.READ_MIN))
				.replace("REND", Long.toString(sb + 8 * AccessTableLayout.READ_END))
				.replace("RCNT", Long.toString(sb + 8 * AccessTableLayout.READ_COUNT))
				.replace("WMIN", Long.toString(sb + 8 * AccessTableLayout.WRITE_MIN))
				.replace("WEND", Long.toString(sb + 8 * AccessTableLayout.WRITE_END))
				.replace("WCNT", Long.toString(sb + 8 * AccessTableLayout.WRITE_COUNT));
	}
}
