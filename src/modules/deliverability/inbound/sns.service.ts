import { Injectable } from '@nestjs/common';
import { logger } from '../../../platform/logging/logger';
import { parseSesNotification } from './ses-notification';
import { SesNotificationsService } from './ses-notifications.service';
import { SnsCertificates } from './sns-certificates';
import { SnsMessagesRepository } from './sns-messages.repository';
import { malformedSnsMessage, snsCertificateRefused, snsCertificateUnavailable, snsConfirmationFailed, snsSignatureInvalid, snsSubscribeUrlRefused } from './sns.errors';
import { parseSnsMessage, SnsMessage, verifySnsSignature } from './sns-message';

const log = logger('sns');

export interface SnsReceipt {
  received: true;
  duplicate: boolean;
}

/**
 * `POST /webhooks/sns`: every message is verified against its signing certificate (fetched only
 * from allowed hosts) before anything happens; each MessageId is handled once.
 */
@Injectable()
export class SnsService {
  constructor(
    private readonly messages: SnsMessagesRepository,
    private readonly certificates: SnsCertificates,
    private readonly ses: SesNotificationsService,
  ) {}

  async receive(body: unknown): Promise<SnsReceipt> {
    const message = parseSnsMessage(body);
    if (typeof message === 'string') throw malformedSnsMessage(message);
    const certUrl = this.certificates.allowedUrl(message.SigningCertURL);
    if (!certUrl) throw snsCertificateRefused();
    const pem = await this.certificates.certificate(certUrl);
    if (!pem) throw snsCertificateUnavailable();
    if (!verifySnsSignature(message, pem)) throw snsSignatureInvalid();
    const subscribeUrl = message.Type === 'SubscriptionConfirmation' ? this.certificates.allowedUrl(message.SubscribeURL!) : null;
    if (message.Type === 'SubscriptionConfirmation' && !subscribeUrl) throw snsSubscribeUrlRefused();

    if (!(await this.messages.claim(message.MessageId, message.Type, message.TopicArn))) return { received: true, duplicate: true };
    try {
      await this.apply(message, subscribeUrl);
    } catch (error) {
      // Unclaim so SNS's retry of this MessageId is handled again.
      await this.messages.unclaim(message.MessageId);
      throw error;
    }
    return { received: true, duplicate: false };
  }

  private async apply(message: SnsMessage, subscribeUrl: URL | null): Promise<void> {
    if (message.Type === 'SubscriptionConfirmation') {
      const status = await this.certificates.confirm(subscribeUrl!).catch((error: Error) => error.message);
      if (typeof status !== 'number' || status < 200 || status >= 300) throw snsConfirmationFailed(status);
      log.info({ topicArn: message.TopicArn }, 'confirmed SNS subscription');
      return;
    }
    if (message.Type === 'UnsubscribeConfirmation') {
      log.warn({ topicArn: message.TopicArn }, 'SNS subscription was removed');
      return;
    }
    const notification = parseSesNotification(message.Message);
    if (!notification) {
      log.info({ messageId: message.MessageId }, 'ignoring an SNS notification that is not an SES notification');
      return;
    }
    await this.ses.handle(notification);
  }
}
