import { OperationLogScreen } from '../components/operation-log-screen';

/** /advertising/remove-log: the operation log (remove). */
export default function Page() {
  return <OperationLogScreen log="remove" />;
}
