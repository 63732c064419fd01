import { MaterialsScreen } from './materials-screen';

/** /advertising/video 短剧素材: the library of drama videos. */
export default function DramaMaterialsPage() {
  return <MaterialsScreen mode="drama" />;
}
