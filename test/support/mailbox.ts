import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";
import type { AddressInfo } from "node:net";

export interface Mailbox {
  /** SMTP_URL for the app. */
  url: string;
  messages: ParsedMail[];
  /** Every RCPT TO of every accepted message. */
  recipients: string[][];
  close(): Promise<void>;
}

/** A real SMTP server on loopback that keeps what it receives, parsed (the tests' and the demo's mail server). */
export async function startMailbox(): Promise<Mailbox> {
  const messages: ParsedMail[] = [];
  const recipients: string[][] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          recipients.push(session.envelope.rcptTo.map((r) => r.address));
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, messages, recipients, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
