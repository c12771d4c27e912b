export interface SystemMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
}

/**
 * Account mail (verification, password reset) from `SYSTEM_FROM`, belonging to no project.
 * `SystemMailModule` binds it to the emails module's pipeline, so it goes out like any other email.
 */
export abstract class SystemMailer {
  abstract send(msg: SystemMessage): Promise<void>;
}
