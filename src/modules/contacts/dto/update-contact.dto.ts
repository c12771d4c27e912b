import { CreateContactDto } from './create-contact.dto';

/** `PATCH /contacts/:id`: the same optional fields as create, each changing only when sent. */
export class UpdateContactDto extends CreateContactDto {}
