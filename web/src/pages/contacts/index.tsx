import { PageHeader } from '../../components/Feedback';

export default function Section() {
  return <PageHeader title="contacts" />;
}
