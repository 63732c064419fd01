import { MaterialsScreen } from './materials-screen';

/** /advertising/upload-ec 电商素材: the library of e-commerce materials. */
export default function EcMaterialsPage() {
  return <MaterialsScreen mode="ec" />;
}
