import { OperationLogScreen } from '../components/operation-log-screen';

/** /advertising/close-log: the operation log (close). */
export default function Page() {
  return <OperationLogScreen log="close" />;
}
