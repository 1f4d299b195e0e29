// A hosted run's judge budget across isolates: episodes of one run are judged in many consumer invocations at
// once, so the reservation is one conditional UPDATE in D1 (it succeeds only while spend plus reservations plus
// this call's worst case stays under the limit). A reservation left by an isolate that died is never released:
// the run can only under-spend, never over-spend.
import type { Budget, Reservation } from "../../core/models/index";

export class D1Budget implements Budget {
  constructor(
    private readonly db: D1Database,
    private readonly runId: string,
    readonly limitMicros: number,
  ) {}

  /** Creates the run's row (idempotent: a redelivered run creation keeps the spend it has). */
  static async open(db: D1Database, runId: string, limitMicros: number): Promise<void> {
    await db.prepare("INSERT INTO judge_spend (run_id, limit_micros) VALUES (?1, ?2) ON CONFLICT (run_id) DO NOTHING").bind(runId, limitMicros).run();
  }

  async reserve(micros: number): Promise<Reservation | null> {
    const row = await this.db
      .prepare("UPDATE judge_spend SET reserved_micros = reserved_micros + ?1 WHERE run_id = ?2 AND spent_micros + reserved_micros + ?1 <= limit_micros RETURNING run_id")
      .bind(micros, this.runId)
      .first<{ run_id: string }>();
    return row ? { micros } : null;
  }

  async settle(r: Reservation, actualMicros: number): Promise<void> {
    await this.db
      .prepare("UPDATE judge_spend SET reserved_micros = max(0, reserved_micros - ?1), spent_micros = spent_micros + ?2 WHERE run_id = ?3")
      .bind(r.micros, actualMicros, this.runId)
      .run();
  }

  async spentMicros(): Promise<number> {
    const row = await this.db.prepare("SELECT spent_micros FROM judge_spend WHERE run_id = ?1").bind(this.runId).first<{ spent_micros: number }>();
    return row?.spent_micros ?? 0;
  }
}
