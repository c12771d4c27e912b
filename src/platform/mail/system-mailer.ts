export interface SystemMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
}

/**
 * Account mail (verification, password reset) from `SYSTEM_FROM`, belonging to no project.
 * Bound globally to the outbox writer now; the sending module rebinds it to the real pipeline.
 */
export abstract class SystemMailer {
  abstract send(msg: SystemMessage): Promise<void>;
}
