import type { LuaScript } from "@orderbot/lock";

/** The Redis commands the budget uses (ioredis has them; so does a Cluster). */
export type ScriptClient = Parameters<LuaScript["run"]>[0];
