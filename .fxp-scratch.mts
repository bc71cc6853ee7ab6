import { XMLParser } from 'fast-xml-parser';
for (const opt of [{ htmlEntities: true }, { processEntities: true, htmlEntities: true }]) {
const p = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', parseAttributeValue: false, ...opt });
console.log(JSON.stringify(p.parse('<a m="x&#10;y &#x41; &lt; &apos;">t &gt; &#10;u</a>')));
}
