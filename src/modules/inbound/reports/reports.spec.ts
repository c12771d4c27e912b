import { deliveryOutcome, parseDeliveryStatus } from './delivery-status';
import { isComplaint, parseFeedbackReport } from './feedback-report';
import { parseHeaderBlocks } from './header-blocks';
import { findReportPart } from './report-part';

const crlf = (text: string) => text.replace(/\n/g, '\r\n');

/** Postfix's bounce: 7bit delivery-status with a folded Diagnostic-Code. */
const POSTFIX = crlf(`Return-Path: <>
From: MAILER-DAEMON@mx.example.net (Mail Delivery System)
To: bounce+abc@bounces.example.com
Subject: Undelivered Mail Returned to Sender
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status;
\tboundary="4ABC.1700000000/mx.example.net"

This is a MIME-encapsulated message.

--4ABC.1700000000/mx.example.net
Content-Description: Notification
Content-Type: text/plain; charset=us-ascii

I'm sorry to have to inform you that your message could not be delivered.

--4ABC.1700000000/mx.example.net
Content-Description: Delivery report
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.net
X-Postfix-Queue-ID: 4ABC
X-Postfix-Sender: rfc822; bounce+abc@bounces.example.com
Arrival-Date: Fri, 27 Nov 2026 10:00:00 +0000 (UTC)

Final-Recipient: rfc822; nobody@example.net
Original-Recipient: rfc822;nobody@example.net
Action: failed
Status: 5.1.1
Remote-MTA: dns; mx2.example.net
Diagnostic-Code: smtp; 550 5.1.1 <nobody@example.net>: Recipient address
    rejected: User unknown in local recipient table

--4ABC.1700000000/mx.example.net
Content-Description: Undelivered Message Headers
Content-Type: text/rfc822-headers

Message-ID: <x@example.com>
Subject: hi

--4ABC.1700000000/mx.example.net--
`);

/** Gmail's: the report nested in multipart/report with Google's MTA names and a 4.x.x delay. */
const GMAIL_DELAY = crlf(`From: Mail Delivery Subsystem <mailer-daemon@googlemail.com>
To: bounce+abc@bounces.example.com
Subject: Delivery Status Notification (Delay)
Content-Type: multipart/report; boundary="000000000000abcd"; report-type=delivery-status

--000000000000abcd
Content-Type: multipart/related; boundary="000000000000ef01"

--000000000000ef01
Content-Type: text/html; charset="UTF-8"

<html>Delivery incomplete</html>
--000000000000ef01--
--000000000000abcd
Content-Type: message/delivery-status

Reporting-MTA: dns; googlemail.com
Arrival-Date: Fri, 27 Nov 2026 02:09:38 -0800 (PST)
X-Original-Message-ID: <x@example.com>

Final-Recipient: rfc822; someone@slow.example
Action: delayed
Status: 4.4.1
Diagnostic-Code: smtp; The recipient server did not accept our requests to connect.
Last-Attempt-Date: Fri, 27 Nov 2026 03:09:39 -0800 (PST)
Will-Retry-Until: Mon, 30 Nov 2026 02:09:38 -0800 (PST)

--000000000000abcd--
`);

/** Exchange's NDR: the delivery-status part base64-encoded. */
const EXCHANGE_STATUS = `Reporting-MTA: dns;EX01.corp.example.org
Received-From-MTA: dns;EX02.corp.example.org
Arrival-Date: Fri, 27 Nov 2026 10:00:00 +0000

Final-Recipient: rfc822;Left.Company@corp.example.org
Action: failed
Status: 5.1.10
Diagnostic-Code: smtp;550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup
`;
const EXCHANGE = crlf(`From: postmaster@corp.example.org
To: bounce+abc@bounces.example.com
Subject: Undeliverable: hello
Content-Type: multipart/report; report-type=delivery-status;
\tboundary="_000_NDR_"

--_000_NDR_
Content-Type: text/plain; charset="us-ascii"

Delivery has failed to these recipients or groups:

--_000_NDR_
Content-Type: message/delivery-status
Content-Transfer-Encoding: base64

${Buffer.from(EXCHANGE_STATUS.replace(/\n/g, '\r\n')).toString('base64').replace(/(.{76})/g, '$1\n')}
--_000_NDR_--
`);

/** An ARF report as Yahoo and Microsoft's JMRP send them. */
const ARF = crlf(`From: feedbackloop@feedback.example.net
To: bounce+abc@bounces.example.com
Subject: FW: Earn money
MIME-Version: 1.0
Content-Type: multipart/report; report-type=feedback-report;
     boundary="part1_13d.2e68ed54_boundary"

--part1_13d.2e68ed54_boundary
Content-Type: text/plain; charset="US-ASCII"
Content-Transfer-Encoding: 7bit

This is an email abuse report for an email message received from IP
192.0.2.1 on Thu, 8 Mar 2005 14:00:00 EDT.

--part1_13d.2e68ed54_boundary
Content-Type: message/feedback-report

Feedback-Type: abuse
User-Agent: SomeGenerator/1.0
Version: 1
Original-Mail-From: <bounce+abc@bounces.example.com>
Original-Rcpt-To: <user@example.net>
Arrival-Date: Thu, 8 Mar 2005 14:00:00 EDT
Reporting-MTA: dns; mail.example.net
Source-IP: 192.0.2.1
Authentication-Results: mail.example.net;
        spf=pass smtp.mail=example.com
Reported-Domain: example.com

--part1_13d.2e68ed54_boundary
Content-Type: message/rfc822
Content-Disposition: inline

From: <somespammer@example.com>
Subject: Earn money

Spam
--part1_13d.2e68ed54_boundary--
`);

describe('header blocks', () => {
  it('splits on blank lines, lower-cases names, unfolds continuations and keeps repeated fields', () => {
    const blocks = parseHeaderBlocks('A: 1\r\nB: two\r\n  lines\r\nA: 3\r\n\r\n\r\nC:4\n');
    expect(blocks).toHaveLength(2);
    expect(blocks[0].get('a')).toEqual(['1', '3']);
    expect(blocks[0].get('b')).toEqual(['two lines']);
    expect(blocks[1].get('c')).toEqual(['4']);
  });
});

describe('delivery status notifications (RFC 3464)', () => {
  it('reads a Postfix bounce as a permanent failure of its recipient', () => {
    const part = findReportPart(Buffer.from(POSTFIX));
    expect(part?.kind).toBe('delivery-status');
    const report = parseDeliveryStatus(part!.text);
    expect(report.reportingMta).toBe('mx.example.net');
    expect(report.recipients).toEqual([
      {
        recipient: 'nobody@example.net',
        action: 'failed',
        status: '5.1.1',
        diagnosticCode: 'smtp; 550 5.1.1 <nobody@example.net>: Recipient address rejected: User unknown in local recipient table',
        remoteMta: 'mx2.example.net',
      },
    ]);
    expect(deliveryOutcome(report)).toMatchObject({ kind: 'permanent', recipient: { status: '5.1.1' } });
  });

  it('reads a Gmail delay (4.x.x, nested multipart) as a delay', () => {
    const part = findReportPart(GMAIL_DELAY);
    const report = parseDeliveryStatus(part!.text);
    expect(report.recipients[0]).toMatchObject({ recipient: 'someone@slow.example', action: 'delayed', status: '4.4.1' });
    expect(deliveryOutcome(report)).toMatchObject({ kind: 'delayed' });
  });

  it('decodes an Exchange NDR whose report part is base64, with a three-digit detail', () => {
    const report = parseDeliveryStatus(findReportPart(EXCHANGE)!.text);
    expect(report.reportingMta).toBe('ex01.corp.example.org');
    expect(report.recipients[0]).toMatchObject({ recipient: 'left.company@corp.example.org', action: 'failed', status: '5.1.10' });
    expect(deliveryOutcome(report).kind).toBe('permanent');
  });

  it('acts on nothing for delivered or relayed recipients, and prefers a permanent failure among several', () => {
    const delivered = parseDeliveryStatus('Reporting-MTA: dns; a\n\nFinal-Recipient: rfc822; x@y\nAction: delivered\nStatus: 2.0.0\n');
    expect(deliveryOutcome(delivered)).toEqual({ kind: 'none' });
    const mixed = parseDeliveryStatus('Reporting-MTA: dns; a\n\nFinal-Recipient: rfc822; x@y\nAction: failed\nStatus: 4.2.2\n\nFinal-Recipient: rfc822; z@y\nAction: failed\nStatus: 5.2.1\n');
    expect(deliveryOutcome(mixed)).toMatchObject({ kind: 'permanent', recipient: { recipient: 'z@y' } });
    expect(deliveryOutcome(parseDeliveryStatus('Reporting-MTA: dns; a\n\nFinal-Recipient: rfc822; x@y\nAction: failed\nStatus: 4.2.2\n')).kind).toBe('delayed');
  });
});

describe('feedback reports (ARF, RFC 5965)', () => {
  it('finds the feedback-report part and reads its fields', () => {
    const part = findReportPart(ARF);
    expect(part?.kind).toBe('feedback-report');
    const report = parseFeedbackReport(part!.text);
    expect(report).toEqual({
      feedbackType: 'abuse',
      userAgent: 'SomeGenerator/1.0',
      originalMailFrom: 'bounce+abc@bounces.example.com',
      originalRcptTo: 'user@example.net',
      arrivalDate: 'Thu, 8 Mar 2005 14:00:00 EDT',
      sourceIp: '192.0.2.1',
      reportedDomain: 'example.com',
    });
    expect(isComplaint(report)).toBe(true);
    expect(isComplaint(parseFeedbackReport('Feedback-Type: not-spam\n'))).toBe(false);
  });

  it('finds no report in an ordinary or malformed message', () => {
    expect(findReportPart('Subject: hi\r\n\r\nHello')).toBeNull();
    expect(findReportPart('Content-Type: multipart/mixed; boundary="x"\r\n\r\n--x\r\nContent-Type: text/plain\r\n\r\nhi\r\n')).toBeNull();
    expect(findReportPart('garbage without headers')).toBeNull();
  });
});
