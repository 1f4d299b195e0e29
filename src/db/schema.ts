// D1: the registry of worlds and, later, runs and episodes. Generated into migrations/ by drizzle-kit.
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const worlds = sqliteTable("worlds", {
  id: text("id").primaryKey(),
  seedName: text("seed_name").notNull(),
  seedHash: text("seed_hash").notNull(),
  objects: integer("objects").notNull(),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
  runId: text("run_id"),
});
