import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An attachment as stored until the message is built; `content` is base64 as received. */
export interface StoredAttachment {
  filename: string;
  content: string;
  contentType?: string;
  contentId?: string;
  disposition: 'attachment' | 'inline';
}

/** Liquid sources and options shared by the emails of one send request (or campaign). */
@Entity('email_contents')
export class EmailContent {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { nullable: true }) projectId: string | null;
  @Column('uuid', { nullable: true }) templateId: string | null;
  @Column('text') subject: string;
  @Column('text') body: string;
  /** False for account mail, whose subject and HTML arrive final (never read as Liquid). */
  @Column('boolean') liquid: boolean;
  /** A given plain-text part; null: generated from the rendered HTML. */
  @Column('text', { nullable: true }) text: string | null;
  @Column('text', { nullable: true }) fromName: string | null;
  @Column('text', { nullable: true }) replyTo: string | null;
  /** Custom headers as sent; they override our defaults case-insensitively when the message is built. */
  @Column('jsonb') headers: Record<string, string>;
  @Column('jsonb') attachments: StoredAttachment[];
  @Column('timestamptz') createdAt: Date;
}
