// A workspace that declares zod and @types/pg and uses neither: the dependency check names both
// (grammy is imported, vitest runs from a script).
import { Bot } from "grammy";

export const bot = (token: string) => new Bot(token);
