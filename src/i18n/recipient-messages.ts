import type { Locale } from './locales';

/** Strings of the hosted subscription pages and the MARKETING footer. Placeholders: {email}, {project}. */
export interface RecipientMessages {
  footerReason: string;
  footerUnsubscribe: string;
  footerManage: string;
  unsubscribeTitle: string;
  unsubscribeQuestion: string;
  unsubscribeButton: string;
  unsubscribedDone: string;
  subscribeTitle: string;
  subscribeQuestion: string;
  subscribeButton: string;
  subscribedDone: string;
  manageTitle: string;
  manageSubscribed: string;
  manageUnsubscribed: string;
}

export const RECIPIENT_MESSAGES: Record<Locale, RecipientMessages> = {
  en: {
    footerReason: 'You are receiving this email from {project}.',
    footerUnsubscribe: 'Unsubscribe',
    footerManage: 'Manage preferences',
    unsubscribeTitle: 'Unsubscribe',
    unsubscribeQuestion: 'Do you want to stop receiving emails from {project} at {email}?',
    unsubscribeButton: 'Unsubscribe',
    unsubscribedDone: '{email} has been unsubscribed from {project}.',
    subscribeTitle: 'Subscribe',
    subscribeQuestion: 'Do you want to receive emails from {project} at {email}?',
    subscribeButton: 'Subscribe',
    subscribedDone: '{email} is now subscribed to {project}.',
    manageTitle: 'Email preferences',
    manageSubscribed: '{email} is subscribed to emails from {project}.',
    manageUnsubscribed: '{email} is not subscribed to emails from {project}.',
  },
  de: {
    footerReason: 'Sie erhalten diese E-Mail von {project}.',
    footerUnsubscribe: 'Abmelden',
    footerManage: 'Einstellungen verwalten',
    unsubscribeTitle: 'Abmelden',
    unsubscribeQuestion: 'Möchten Sie unter {email} keine E-Mails mehr von {project} erhalten?',
    unsubscribeButton: 'Abmelden',
    unsubscribedDone: '{email} wurde von {project} abgemeldet.',
    subscribeTitle: 'Anmelden',
    subscribeQuestion: 'Möchten Sie unter {email} E-Mails von {project} erhalten?',
    subscribeButton: 'Anmelden',
    subscribedDone: '{email} ist jetzt bei {project} angemeldet.',
    manageTitle: 'E-Mail-Einstellungen',
    manageSubscribed: '{email} erhält E-Mails von {project}.',
    manageUnsubscribed: '{email} erhält keine E-Mails von {project}.',
  },
  fr: {
    footerReason: 'Vous recevez cet e-mail de la part de {project}.',
    footerUnsubscribe: 'Se désabonner',
    footerManage: 'Gérer les préférences',
    unsubscribeTitle: 'Désabonnement',
    unsubscribeQuestion: 'Voulez-vous ne plus recevoir d’e-mails de {project} à l’adresse {email} ?',
    unsubscribeButton: 'Se désabonner',
    unsubscribedDone: '{email} a été désabonné de {project}.',
    subscribeTitle: 'Abonnement',
    subscribeQuestion: 'Voulez-vous recevoir les e-mails de {project} à l’adresse {email} ?',
    subscribeButton: 'S’abonner',
    subscribedDone: '{email} est maintenant abonné à {project}.',
    manageTitle: 'Préférences e-mail',
    manageSubscribed: '{email} est abonné aux e-mails de {project}.',
    manageUnsubscribed: '{email} n’est pas abonné aux e-mails de {project}.',
  },
  es: {
    footerReason: 'Recibes este correo de {project}.',
    footerUnsubscribe: 'Darse de baja',
    footerManage: 'Gestionar preferencias',
    unsubscribeTitle: 'Darse de baja',
    unsubscribeQuestion: '¿Quieres dejar de recibir correos de {project} en {email}?',
    unsubscribeButton: 'Darse de baja',
    unsubscribedDone: '{email} se ha dado de baja de {project}.',
    subscribeTitle: 'Suscribirse',
    subscribeQuestion: '¿Quieres recibir correos de {project} en {email}?',
    subscribeButton: 'Suscribirse',
    subscribedDone: '{email} ya está suscrito a {project}.',
    manageTitle: 'Preferencias de correo',
    manageSubscribed: '{email} está suscrito a los correos de {project}.',
    manageUnsubscribed: '{email} no está suscrito a los correos de {project}.',
  },
  nl: {
    footerReason: 'Je ontvangt deze e-mail van {project}.',
    footerUnsubscribe: 'Afmelden',
    footerManage: 'Voorkeuren beheren',
    unsubscribeTitle: 'Afmelden',
    unsubscribeQuestion: 'Wil je geen e-mails van {project} meer ontvangen op {email}?',
    unsubscribeButton: 'Afmelden',
    unsubscribedDone: '{email} is afgemeld bij {project}.',
    subscribeTitle: 'Aanmelden',
    subscribeQuestion: 'Wil je e-mails van {project} ontvangen op {email}?',
    subscribeButton: 'Aanmelden',
    subscribedDone: '{email} is nu aangemeld bij {project}.',
    manageTitle: 'E-mailvoorkeuren',
    manageSubscribed: '{email} ontvangt e-mails van {project}.',
    manageUnsubscribed: '{email} ontvangt geen e-mails van {project}.',
  },
  pt: {
    footerReason: 'Você está recebendo este e-mail de {project}.',
    footerUnsubscribe: 'Cancelar inscrição',
    footerManage: 'Gerir preferências',
    unsubscribeTitle: 'Cancelar inscrição',
    unsubscribeQuestion: 'Deseja deixar de receber e-mails de {project} em {email}?',
    unsubscribeButton: 'Cancelar inscrição',
    unsubscribedDone: 'A inscrição de {email} em {project} foi cancelada.',
    subscribeTitle: 'Inscrever-se',
    subscribeQuestion: 'Deseja receber e-mails de {project} em {email}?',
    subscribeButton: 'Inscrever-se',
    subscribedDone: '{email} está agora inscrito em {project}.',
    manageTitle: 'Preferências de e-mail',
    manageSubscribed: '{email} está inscrito nos e-mails de {project}.',
    manageUnsubscribed: '{email} não está inscrito nos e-mails de {project}.',
  },
  it: {
    footerReason: 'Ricevi questa email da {project}.',
    footerUnsubscribe: 'Annulla iscrizione',
    footerManage: 'Gestisci preferenze',
    unsubscribeTitle: 'Annulla iscrizione',
    unsubscribeQuestion: 'Vuoi smettere di ricevere email da {project} all’indirizzo {email}?',
    unsubscribeButton: 'Annulla iscrizione',
    unsubscribedDone: 'L’iscrizione di {email} a {project} è stata annullata.',
    subscribeTitle: 'Iscriviti',
    subscribeQuestion: 'Vuoi ricevere le email di {project} all’indirizzo {email}?',
    subscribeButton: 'Iscriviti',
    subscribedDone: '{email} è ora iscritto a {project}.',
    manageTitle: 'Preferenze email',
    manageSubscribed: '{email} è iscritto alle email di {project}.',
    manageUnsubscribed: '{email} non è iscritto alle email di {project}.',
  },
};
