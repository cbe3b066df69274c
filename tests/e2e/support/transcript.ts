// Golden transcripts: a conversation through the fake Telegram written down as people read it —
// who said what, each message of the bot with its buttons, every edit and deletion — so that a
// change to the conversation shows up in review as a diff of docs/transcripts/*.md.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { FakeTelegram, TgMessage, UserAction } from "@orderbot/fake-telegram";
import { PROJECT_ROOT } from "@orderbot/testkit";

export const TRANSCRIPTS_DIR = path.join(PROJECT_ROOT, "docs", "transcripts");
/** `UPDATE_TRANSCRIPTS=1 npm test -- tests/e2e/transcripts.test.ts` rewrites them. */
export const UPDATING = process.env.UPDATE_TRANSCRIPTS === "1";

type ChatRef = Parameters<FakeTelegram["chat"]>[0];

/** A message's inline buttons, a row per line: `[Pay 30 ⭐] [Cancel order]`. */
function buttonRows(message: TgMessage): string[] {
  return (message.reply_markup?.inline_keyboard ?? [])
    .filter((row) => row.length > 0)
    .map((row) => row.map((b) => `[${b.text}]`).join(" "));
}

function body(message: TgMessage): string[] {
  if (message.invoice)
    return [
      `🧾 invoice “${message.invoice.title}”: ${message.invoice.description} (${message.invoice.total_amount} ${message.invoice.currency})`,
    ];
  const text = message.text ?? message.caption ?? "";
  return [...(message.photo ? ["🖼 (photo)"] : []), ...text.split("\n")];
}

/**
 * Records one journey: the people's actions, as the script does them, and the bot's answers, as
 * the chats show them (the fake's event history of every chat followed). Ids that change from run
 * to run (orders, question numbers) and clock times are replaced by stable names.
 */
export class Transcript {
  private readonly lines: string[];
  private readonly cursors = new Map<number, number>();
  private readonly names = new Map<number, string>();
  private readonly stable = new Map<string, string>();

  constructor(
    private readonly kit: FakeTelegram,
    title: string,
    intro: string,
  ) {
    this.lines = [`# ${title}`, "", intro, ""];
  }

  /** Follows a chat under a name ("Ann", "operators"): its messages from now on are recorded. */
  follow(chat: ChatRef, name: string): void {
    const view = this.kit.chat(chat);
    this.names.set(view.id, name);
    this.cursors.set(view.id, view.history.at(-1)?.seq ?? 0);
  }

  /** A stable stand-in for a value that differs between runs ("ORDER-1"). */
  name(value: string, kind: string): void {
    if (!this.stable.has(value))
      this.stable.set(
        value,
        `${kind}-${[...this.stable.values()].filter((v) => v.startsWith(kind)).length + 1}`,
      );
  }

  note(text: string): void {
    this.flush();
    this.lines.push(`*${text}*`, "");
  }

  /**
   * A person's action (a message sent, a button pressed, an invoice paid), then everything the bot
   * did about it: once the update is handled and, when given, `until` holds.
   */
  async act<T>(
    who: string,
    what: string,
    action: () => Promise<T>,
    until?: () => Promise<unknown>,
  ): Promise<T> {
    this.flush();
    this.lines.push(`**${who}** ${what}`, "");
    const done = await action();
    if (isAction(done)) await done.handled();
    if (until) await until();
    await settle();
    this.flush();
    return done;
  }

  /** Writes down whatever the followed chats show since the last look. */
  flush(): void {
    for (const [chatId, cursor] of this.cursors) {
      const events = this.kit.chat(chatId).history.filter((e) => e.seq > cursor);
      for (const event of events) {
        if (event.by !== "bot") continue;
        const where = this.names.get(chatId) ?? String(chatId);
        const lines =
          event.kind === "deleted"
            ? [`> 🗑 deletes message ${event.message.message_id}`]
            : [
                `> ${event.kind === "edited" ? `✏️ edits message ${event.message.message_id}` : `💬 message ${event.message.message_id}`}`,
                ...body(event.message).map((line) => `> ${line}`),
                ...buttonRows(event.message).map((row) => `> ${row}`),
              ];
        this.lines.push(`bot → ${where}:`, "", ...lines, "");
      }
      this.cursors.set(chatId, events.at(-1)?.seq ?? cursor);
    }
  }

  text(): string {
    this.flush();
    let text = `${this.lines.join("\n").trimEnd()}\n`;
    for (const [value, name] of this.stable) text = text.split(value).join(name);
    // Clock times and dates depend on when the run happens.
    return text
      .replace(/\b\d{2}:\d{2}\b/g, "HH:MM")
      .replace(/\b\d{1,2} [A-Z][a-z]{2} \d{4}\b/g, "D MMM YYYY")
      .replace(/\d{4}年\d{1,2}月\d{1,2}日/g, "YYYY年M月D日")
      .replace(/\b\d{4}-\d{2}-\d{2}\b/g, "YYYY-MM-DD");
  }

  /** Compares with the committed transcript, or rewrites it with UPDATE_TRANSCRIPTS=1. */
  check(file: string): { expected: string | null; actual: string; path: string } {
    const target = path.join(TRANSCRIPTS_DIR, file);
    const actual = this.text();
    if (UPDATING) {
      mkdirSync(TRANSCRIPTS_DIR, { recursive: true });
      writeFileSync(target, actual);
      return { expected: actual, actual, path: target };
    }
    return {
      expected: existsSync(target) ? readFileSync(target, "utf8") : null,
      actual,
      path: target,
    };
  }
}

const isAction = (value: unknown): value is UserAction =>
  typeof value === "object" && value !== null && "handled" in value;

/** Lets follow-up calls of the bot (an edit after a reply) land before the next look. */
function settle(ms = 150): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
